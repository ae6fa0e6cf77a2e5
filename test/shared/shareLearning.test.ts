// The rate limiter learning its share of an AWeber account used by other processes (docs/rate-limits.md), on a
// manual clock: several limiters, each standing for one n8n process, send to one simulated AWeber account.
import { decideAfterFailure } from '../../nodes/shared/failureDecision';
import { AccountRateLimiter, MAX_SHARE_HOLD_WINDOWS, SHARE_HOLD_WINDOWS, shareAfterQuiet, shareAfterRefusal } from '../../nodes/shared/rateLimiter';

import { ManualClock } from './manualClock';

const WINDOW = 60_000;
const LIMIT = 120;

/** AWeber's rule: 120 per sliding minute per account; the request over it is refused (not counted) and locks the account out for a minute, after which a fresh window starts. */
class SimulatedAccount {
	private accepted: number[] = [];

	private lockedUntil = -Infinity;

	/** Every lockout's start. */
	readonly lockouts: number[] = [];

	refusals = 0;

	constructor(private readonly clock: ManualClock) {}

	hit(): boolean {
		const now = this.clock.now();
		if (now < this.lockedUntil) {
			this.refusals++;
			return false;
		}
		this.accepted = this.accepted.filter((time) => time > now - WINDOW);
		if (this.accepted.length >= LIMIT) {
			this.refusals++;
			this.lockedUntil = now + WINDOW;
			this.lockouts.push(now);
			this.accepted = [];
			return false;
		}
		this.accepted.push(now);
		return true;
	}
}

const REFUSAL = { status: 403, message: 'Rate Limit Error' };

/** One n8n process: its limiter and the items it sends, each retried after a lockout as transport.ts does. */
class SimulatedProcess {
	readonly limiter: AccountRateLimiter;

	done = 0;

	/** The highest share the limiter allowed, sampled at every start. */
	highestShare = 0;

	/** When each request started, to check the ceiling over any window. */
	readonly startedAt: number[] = [];

	constructor(
		private readonly clock: ManualClock,
		private readonly account: SimulatedAccount,
		private readonly options: { learning?: boolean; latencyMs?: number } = {},
	) {
		this.limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
	}

	/** Starts `count` items at once, as n8n starts a node's items. */
	send(count: number): void {
		for (let index = 0; index < count; index++) void this.sendItem();
	}

	private async sendItem(): Promise<void> {
		const latency = this.options.latencyMs ?? 200;
		let rateLimitWaits = 0;
		for (let attempt = 0; ; attempt++) {
			const slot = await this.limiter.acquire({ priority: attempt > 0 });
			this.highestShare = Math.max(this.highestShare, this.limiter.share());
			this.startedAt.push(this.clock.now());
			await this.clock.sleep(latency / 2);
			const accepted = this.account.hit();
			await this.clock.sleep(latency / 2);
			if (accepted) {
				slot.release();
				this.done++;
				return;
			}
			const decision = decideAfterFailure(
				REFUSAL,
				{ rateLimitWaits, transientRetries: 0, refreshRaceRetried: false, outcomeUnknown: false },
				{ repeatable: true, isWrite: true, canRecoverDuplicate: false },
				{
					notAnAnswer: false,
					lostRefreshRace: false,
					account: {
						sentInWindow: this.limiter.sentInWindow(),
						ceiling: LIMIT,
						lockedOut: this.limiter.isLockedOut(),
						learning: this.options.learning !== false,
					},
					backoffBaseMs: 1_000,
				},
			);
			// Every item here keeps waiting (a real request gives up after five lockouts).
			rateLimitWaits = 0;
			if (decision.action !== 'wait-out-lockout') throw new Error(`unexpected decision ${decision.action}`);
			this.limiter.lockOut();
			if (decision.lowerShareTo !== undefined) this.limiter.lowerShare(decision.lowerShareTo);
			slot.release({ refused: true });
		}
	}

	/** The most requests this process started within any one window. */
	mostInOneWindow(): number {
		let most = 0;
		for (let first = 0, last = 0; last < this.startedAt.length; last++) {
			while (this.startedAt[last] - this.startedAt[first] >= WINDOW) first++;
			most = Math.max(most, last - first + 1);
		}
		return most;
	}
}

async function runUntilDone(clock: ManualClock, processes: SimulatedProcess[], total: number, limitMs: number): Promise<number> {
	const start = clock.now();
	while (processes.reduce((sum, process) => sum + process.done, 0) < total && clock.now() - start < limitMs) {
		await clock.advance(1_000);
	}
	return clock.now() - start;
}

describe('Learning the share of an account used by several processes', () => {
	it.each([2, 3])('%i processes starting together split the account after one lockout and keep it', async (count) => {
		const clock = new ManualClock();
		const account = new SimulatedAccount(clock);
		const processes = Array.from({ length: count }, () => new SimulatedProcess(clock, account));
		for (const process of processes) process.send(500);

		const tookMs = await runUntilDone(clock, processes, 500 * count, 60 * WINDOW);

		expect(processes.map((process) => process.done)).toEqual(processes.map(() => 500));
		// Each process was refused in the first window and learned its part; together they then stay under the limit
		// (a probe upwards may cost one more lockout late in the run).
		expect(account.lockouts.length).toBeGreaterThanOrEqual(1);
		expect(account.lockouts.length).toBeLessThanOrEqual(2);
		expect(account.lockouts[0]).toBeLessThan(WINDOW);
		const perMinute = (500 * count) / (tookMs / WINDOW);
		expect(perMinute).toBeGreaterThanOrEqual(100);
	});

	it.each([2, 3])('without the learning, %i processes lock the account out again and again (the baseline)', async (count) => {
		const clock = new ManualClock();
		const account = new SimulatedAccount(clock);
		const processes = Array.from({ length: count }, () => new SimulatedProcess(clock, account, { learning: false }));
		for (const process of processes) process.send(500);

		await runUntilDone(clock, processes, 500 * count, 60 * WINDOW);

		expect(account.lockouts.length).toBeGreaterThan(2);
	});

	it('grows back to the full limit once the other processes stop, without another lockout', async () => {
		const clock = new ManualClock();
		const account = new SimulatedAccount(clock);
		const [staying, leaving] = [new SimulatedProcess(clock, account), new SimulatedProcess(clock, account)];
		staying.send(3_000);
		leaving.send(150);
		await runUntilDone(clock, [leaving], 150, 10 * WINDOW);
		expect(leaving.done).toBe(150);
		const lockoutsWhileShared = account.lockouts.length;
		const lowered = staying.limiter.share();
		expect(lowered).toBeLessThan(LIMIT);

		// Alone on the account: after the hold, the share doubles its steps back to the ceiling.
		await clock.advance((SHARE_HOLD_WINDOWS + 8) * WINDOW);
		expect(staying.limiter.share()).toBe(LIMIT);
		expect(account.lockouts).toHaveLength(lockoutsWhileShared);
		// And it uses it: a full window at the limit.
		const before = staying.done;
		await clock.advance(WINDOW);
		expect(staying.done - before).toBeGreaterThanOrEqual(LIMIT - 5);
	});

	it('probes ever more rarely while the others keep the account busy: each refusal while lowered doubles the hold', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
		limiter.lowerShare(57);
		await clock.advance((SHARE_HOLD_WINDOWS + 3) * WINDOW);
		expect(limiter.share()).toBe(57 + 7);
		// The raise met a refusal: lowered again, and held twice as long.
		limiter.lowerShare(58);
		await clock.advance((2 * SHARE_HOLD_WINDOWS) * WINDOW);
		expect(limiter.share()).toBe(58);
		await clock.advance(WINDOW);
		expect(limiter.share()).toBe(59);
		for (let refusal = 0; refusal < 10; refusal++) limiter.lowerShare(58);
		await clock.advance(MAX_SHARE_HOLD_WINDOWS * WINDOW);
		expect(limiter.share()).toBe(58);
		await clock.advance(8 * WINDOW);
		expect(limiter.share()).toBe(LIMIT);
	});

	it('never sends more than the credential allows in any window, learning or not', async () => {
		const clock = new ManualClock();
		const account = new SimulatedAccount(clock);
		const processes = [new SimulatedProcess(clock, account), new SimulatedProcess(clock, account)];
		processes[0].send(1_500);
		processes[1].send(200);
		await runUntilDone(clock, processes, 1_700, 60 * WINDOW);
		for (const process of processes) {
			expect(process.highestShare).toBeLessThanOrEqual(LIMIT);
			expect(process.mostInOneWindow()).toBeLessThanOrEqual(LIMIT);
		}
	});

	it('alone on the account, a process is never refused and keeps its full limit', async () => {
		const clock = new ManualClock();
		const account = new SimulatedAccount(clock);
		const alone = new SimulatedProcess(clock, account);
		alone.send(600);
		await runUntilDone(clock, [alone], 600, 20 * WINDOW);
		expect(alone.done).toBe(600);
		expect(account.refusals).toBe(0);
		expect(alone.highestShare).toBe(LIMIT);
	});
});

describe('The share arithmetic', () => {
	it('lowers to what this process sent in the refused window, less a twentieth, never below a tenth of the limit', () => {
		expect(shareAfterRefusal(60, 120)).toBe(57);
		expect(shareAfterRefusal(2, 120)).toBe(12);
	});

	it('learns nothing from a refusal when this process alone filled the limit', () => {
		expect(shareAfterRefusal(120, 120)).toBeUndefined();
	});

	it('holds, then rises by 1, 2, 4, ... per quiet window up to the ceiling', () => {
		const at = (windows: number) => shareAfterQuiet(57, windows * WINDOW, WINDOW, 120);
		expect([0, SHARE_HOLD_WINDOWS].map(at)).toEqual([57, 57]);
		expect([1, 2, 3, 4].map((extra) => at(SHARE_HOLD_WINDOWS + extra))).toEqual([58, 60, 64, 72]);
		expect(at(SHARE_HOLD_WINDOWS + 40)).toBe(120);
	});
});
