// The rate limiter learning its share of an AWeber account used by other processes (docs/rate-limits.md), on a
// manual clock: several limiters, each standing for one n8n process, send to one simulated AWeber account.
import { decideAfterFailure } from '../../nodes/shared/failureDecision';
import { AccountRateLimiter, type TurnOrder } from '../../nodes/shared/rateLimiter';
import { MAX_SHARE_HOLD_WINDOWS, measuredShare, measuringPace, SHARE_HOLD_WINDOWS, shareAfterQuiet, shareAfterRefusal } from '../../nodes/shared/shareLearning';

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

	/** When the last item was added. */
	finishedAt = 0;

	/** Every share the limiter settled at, in order. */
	readonly settledShares: number[] = [];

	/** The highest share the limiter allowed, sampled at every start. */
	highestShare = 0;

	/** When each request started, to check the ceiling over any window. */
	readonly startedAt: number[] = [];

	constructor(
		private readonly clock: ManualClock,
		private readonly account: SimulatedAccount,
		private readonly options: { learning?: boolean; latencyMs?: number; startAfterMs?: number; turns?: TurnOrder } = {},
	) {
		this.limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, { clock, turns: options.turns });
	}

	/** Starts `count` items at once, as n8n starts a node's items (after `startAfterMs`: n8n prepares the items first). */
	send(count: number): void {
		const start = () => {
			for (let index = 0; index < count; index++) void this.sendItem();
		};
		if (this.options.startAfterMs) void this.clock.sleep(this.options.startAfterMs).then(start);
		else start();
	}

	private async sendItem(): Promise<void> {
		const latency = this.options.latencyMs ?? 200;
		let rateLimitWaits = 0;
		for (let attempt = 0; ; attempt++) {
			const slot = await this.limiter.acquire({ priority: attempt > 0 });
			this.highestShare = Math.max(this.highestShare, this.limiter.learning.share());
			this.startedAt.push(this.clock.now());
			await this.clock.sleep(latency / 2);
			const accepted = this.account.hit();
			await this.clock.sleep(latency / 2);
			if (accepted) {
				slot.release();
				this.done++;
				this.finishedAt = this.clock.now();
				return;
			}
			const decision = decideAfterFailure(
				REFUSAL,
				{ rateLimitWaits, transientRetries: 0, refreshRaceRetried: false, outcomeUnknown: false },
				{ repeatable: true, canRecoverDuplicate: false },
				{
					notAnAnswer: false,
					lostRefreshRace: false,
					account: {
						sentInWindow: this.limiter.sentInWindow(),
						ceiling: LIMIT,
						lockedOut: this.limiter.isLockedOut(),
						share: this.limiter.learning.state(),
						measuredWindows: this.limiter.learning.measuredWindows(),
						learning: this.options.learning !== false,
					},
					backoffBaseMs: 1_000,
				},
			);
			// Every item here keeps waiting (a real request gives up after five lockouts).
			rateLimitWaits = 0;
			if (decision.action !== 'wait-out-lockout') throw new Error(`unexpected decision ${decision.action}`);
			this.limiter.lockOut();
			if (decision.measureShare) this.limiter.learning.measure();
			if (decision.lowerShareTo !== undefined) this.settledShares.push(this.limiter.learning.lower(decision.lowerShareTo));
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

/** `count` processes of 500 adds each, each starting `apartMs` after the one before, run until all are done (at most an hour). */
async function runStaggered(count: number, apartMs: number) {
	const clock = new ManualClock();
	const account = new SimulatedAccount(clock);
	const processes = Array.from({ length: count }, (_, index) => new SimulatedProcess(clock, account, { startAfterMs: index * apartMs }));
	for (const process of processes) process.send(500);
	const tookMs = await runUntilDone(clock, processes, 500 * count, 60 * WINDOW);
	return { account, processes, tookMs };
}

/** Another app on the account, sending 40 requests a minute until stopped. */
function startAppAt40PerMinute(clock: ManualClock, account: SimulatedAccount): () => void {
	let appRunning = true;
	void (async () => {
		while (appRunning) {
			account.hit();
			await clock.sleep(WINDOW / 40);
		}
	})();
	return () => {
		appRunning = false;
	};
}

describe('Learning the share of an account used by several processes', () => {
	it.each([2, 3])('%i processes starting together split the account in two lockouts (the refusal, then the measurement) and keep it', async (count) => {
		const clock = new ManualClock();
		const account = new SimulatedAccount(clock);
		const processes = Array.from({ length: count }, () => new SimulatedProcess(clock, account));
		for (const process of processes) process.send(500);

		const tookMs = await runUntilDone(clock, processes, 500 * count, 60 * WINDOW);

		expect(processes.map((process) => process.done)).toEqual(processes.map(() => 500));
		// Each process was refused in the first window, measured its part after that lockout, and keeps it: together
		// they then stay under the limit, and none rises before the others are done.
		expect(account.lockouts.length).toBeGreaterThanOrEqual(1);
		expect(account.lockouts.length).toBeLessThanOrEqual(2);
		expect(account.lockouts[0]).toBeLessThan(WINDOW);
		const perMinute = (500 * count) / (tookMs / WINDOW);
		expect(perMinute).toBeGreaterThanOrEqual(100);
	});

	// What the benchmark showed (bench/RESULTS.md): n8n prepares a node's items first, and processes started together
	// finish that a moment apart. The first to send bursts alone and has sent several times what the others did when
	// AWeber refuses; learning from those counts left the last processes at small shares, running on alone long after
	// the first had finished (the tail).
	it.each([
		[2, 2_000],
		[3, 2_000],
		[2, 5_000],
		[3, 3_000],
	])('%i processes starting %i ms apart get parts that let them finish together, in at most two lockouts', async (count, apartMs) => {
		const { account, processes, tookMs } = await runStaggered(count, apartMs);

		expect(processes.map((process) => process.done)).toEqual(processes.map(() => 500));
		// The refusal that showed the others, then the one that ended the measurement.
		expect(account.lockouts.length).toBeLessThanOrEqual(2);
		expect((500 * count) / (tookMs / WINDOW)).toBeGreaterThanOrEqual(100);
		// No tail: the last finishes within a window and a half of the first.
		const finished = processes.map((process) => process.finishedAt);
		expect(Math.max(...finished) - Math.min(...finished)).toBeLessThanOrEqual(1.5 * WINDOW);
	});

	// The benchmark under load: one process started a few seconds ahead had sent its 120 and was waiting when the
	// others were refused, so it met the lockout a window late, measured against processes already settled, and got
	// almost nothing. It must not be held there long: the others are not measuring alike, so it soon rises.
	it.each([
		[3, 6_000],
		[2, 10_000],
	])('%i processes starting %i ms apart: the one that met the lockout late does not crawl on alone', async (count, apartMs) => {
		const { account, processes } = await runStaggered(count, apartMs);

		expect(processes.map((process) => process.done)).toEqual(processes.map(() => 500));
		expect(account.lockouts.length).toBeLessThanOrEqual(2);
		expect(Math.max(...processes.map((process) => process.finishedAt))).toBeLessThanOrEqual(18 * WINDOW);
	});

	it('beside another app sending 40 requests per minute, a process settles at what the app leaves after at most two lockouts (500 adds, as in the benchmark)', async () => {
		const clock = new ManualClock();
		const account = new SimulatedAccount(clock);
		const stopApp = startAppAt40PerMinute(clock, account);
		const ours = new SimulatedProcess(clock, account);
		ours.send(500);

		await runUntilDone(clock, [ours], 500, 60 * WINDOW);
		stopApp();

		expect(ours.done).toBe(500);
		expect(account.lockouts.length).toBeLessThanOrEqual(2);
		expect(ours.settledShares.at(-1)).toBeLessThanOrEqual(LIMIT - 40);
	});

	// What spreading turns costs (docs/rate-limits.md#turns-between-executions): the places it leaves free go to the app,
	// so AWeber's refusal that shows the app comes later in the first minute. It changes when the share is learned, not
	// what it is: the same share, no more lockouts, and most of the pace of first-come turns.
	it.each([
		['started together with the bulk', 0],
		['already running', 1.5 * WINDOW],
	])('beside an app %s, a 500-add bulk with turns spread learns the share first-come turns learn, in the same lockouts', async (_case, appAheadMs) => {
		const run = async (turns: TurnOrder) => {
			const clock = new ManualClock();
			const account = new SimulatedAccount(clock);
			const stopApp = startAppAt40PerMinute(clock, account);
			await clock.advance(appAheadMs);
			const startedAt = clock.now();
			const ours = new SimulatedProcess(clock, account, { turns });
			ours.send(500);
			const tookMs = await runUntilDone(clock, [ours], 500, 60 * WINDOW);
			stopApp();
			expect(ours.done).toBe(500);
			const lockouts = account.lockouts.filter((at) => at >= startedAt);
			return { perMinute: 500 / (tookMs / WINDOW), lockouts: lockouts.length, firstRefusal: lockouts[0] - startedAt, share: ours.settledShares.at(-1) };
		};
		const firstCome = await run('first-come');
		const fair = await run('fair');
		expect(fair.lockouts).toBeLessThanOrEqual(firstCome.lockouts);
		expect(fair.lockouts).toBeLessThanOrEqual(2);
		// Refused within the window the spread covers, so the delay is one window at most, once per run.
		expect(fair.firstRefusal).toBeGreaterThan(firstCome.firstRefusal);
		expect(fair.firstRefusal).toBeLessThan(WINDOW);
		expect(Math.abs((fair.share ?? 0) - (firstCome.share ?? 0))).toBeLessThanOrEqual(1);
		// In the model: 66.6 against 70.8 with the app already running, 65.1 against 80.9 when it starts with the bulk
		// (a burst then sends most of a minute before the app has sent much; the benchmark's section 4 shows both).
		expect(fair.perMinute).toBeGreaterThanOrEqual((appAheadMs > 0 ? 0.9 : 0.75) * firstCome.perMinute);
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
		const lowered = staying.limiter.learning.share();
		expect(lowered).toBeLessThan(LIMIT);

		// Alone on the account: after the hold, the share doubles its steps back to the ceiling.
		await clock.advance((SHARE_HOLD_WINDOWS + 8) * WINDOW);
		expect(staying.limiter.learning.share()).toBe(LIMIT);
		expect(account.lockouts).toHaveLength(lockoutsWhileShared);
		// And it uses it: a full window at the limit.
		const before = staying.done;
		await clock.advance(WINDOW);
		expect(staying.done - before).toBeGreaterThanOrEqual(LIMIT - 5);
	});

	it('reports the share back at the full limit once, after it was lowered, and never while it is still lowered', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
		expect(limiter.learning.takeRecoveredShare()).toBeUndefined();
		limiter.learning.lower(57);
		expect(limiter.learning.takeRecoveredShare()).toBeUndefined();
		await clock.advance((SHARE_HOLD_WINDOWS + 8) * WINDOW);
		expect(limiter.learning.takeRecoveredShare()).toBe(LIMIT);
		expect(limiter.learning.takeRecoveredShare()).toBeUndefined();
	});

	it('probes ever more rarely while the others keep the account busy: each refusal while lowered doubles the hold', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
		limiter.learning.lower(57);
		await clock.advance((SHARE_HOLD_WINDOWS + 3) * WINDOW);
		expect(limiter.learning.share()).toBe(57 + 7);
		// The raise met a refusal: lowered again, and held twice as long.
		limiter.learning.lower(58);
		await clock.advance((2 * SHARE_HOLD_WINDOWS) * WINDOW);
		expect(limiter.learning.share()).toBe(58);
		await clock.advance(WINDOW);
		expect(limiter.learning.share()).toBe(59);
		for (let refusal = 0; refusal < 10; refusal++) limiter.learning.lower(58);
		await clock.advance(MAX_SHARE_HOLD_WINDOWS * WINDOW);
		expect(limiter.learning.share()).toBe(58);
		await clock.advance(8 * WINDOW);
		expect(limiter.learning.share()).toBe(LIMIT);
	});

	it('in a long run beside a steady app, the lockouts grow ever rarer, down to one per longest hold', async () => {
		const clock = new ManualClock();
		const account = new SimulatedAccount(clock);
		const stopApp = startAppAt40PerMinute(clock, account);
		const ours = new SimulatedProcess(clock, account);
		ours.send(50_000);
		await runUntilDone(clock, [ours], 50_000, 9 * 60 * WINDOW);
		stopApp();

		const gaps = account.lockouts.slice(1).map((at, index) => (at - account.lockouts[index]) / WINDOW);
		// The refusal, the measurement's, then a raise's after each hold, the hold doubling up to the longest: 9 in 9 hours
		// (with the hold stopping at 40 windows, as before, 16).
		expect(gaps.every((gap, index) => index === 0 || gap >= gaps[index - 1])).toBe(true);
		expect(gaps.at(-1)).toBeGreaterThan(MAX_SHARE_HOLD_WINDOWS);
		expect(account.lockouts.length).toBeLessThanOrEqual(9);
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

describe('Measuring the share after a lockout', () => {
	it('paces evenly from the end of the lockout, at a pace that drains the waiting requests in four windows', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
		const { waitMs } = limiter.lockOut();
		limiter.learning.measure();
		const startedAt: number[] = [];
		for (let index = 0; index < 400; index++) {
			void limiter.acquire().then((slot) => {
				startedAt.push(clock.now());
				slot.release();
			});
		}
		await clock.advance(waitMs + WINDOW / 2);

		expect(limiter.learning.state()).toBe('measuring');
		expect(startedAt[0]).toBeGreaterThanOrEqual(waitMs);
		// 400 waiting: 100 per window, so about 50 in half a window, not a burst of the whole limit.
		expect(startedAt.length).toBeGreaterThanOrEqual(45);
		expect(startedAt.length).toBeLessThanOrEqual(55);
	});

	it('paces each request on the work left, counting the one that starts', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
		const { waitMs } = limiter.lockOut();
		limiter.learning.measure();
		let started = 0;
		for (let index = 0; index < 400; index++) {
			void limiter.acquire().then((slot) => {
				started++;
				slot.release();
			});
		}
		await clock.advance(waitMs);
		expect(started).toBe(1);
		// 400 to drain in four windows: 100 per window, one per 606 ms (a request counts 60.6 s).
		await clock.advance(605);
		expect(started).toBe(1);
		await clock.advance(1);
		expect(started).toBe(2);
	});

	it('holds the measured share while the others measured alike still have work: four windows over the measurement\'s length, after the lockout', async () => {
		/** Windows the share stays where a measurement of `measuredMs` (from its first request to the refusal) settled it. */
		async function heldWindows(measuredMs: number) {
			const clock = new ManualClock();
			const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
			const { waitMs } = limiter.lockOut();
			limiter.learning.measure();
			void limiter.acquire().then((slot) => slot.release());
			await clock.advance(waitMs + measuredMs);
			expect(limiter.learning.state()).toBe('measuring');
			limiter.learning.lower(50);
			let held = 0;
			while (held < 60) {
				await clock.advance(WINDOW);
				if (limiter.learning.share() > 50) return held;
				held++;
			}
			return held;
		}

		// Half a window: the others drain in 4 / 0.5 = 8 windows, plus the lockout's.
		expect(await heldWindows(WINDOW / 2)).toBe(1 + 8);
		// Just over a fifth of a window: 1 + ceil(4 / 0.22) = 20, the longest hold a measurement gives.
		expect(await heldWindows(0.22 * WINDOW)).toBe(20);
		// A fifth or less says the others did not measure alike (this process met the lockout late): the shortest hold.
		expect(await heldWindows(0.2 * WINDOW)).toBe(SHARE_HOLD_WINDOWS);
		expect(await heldWindows(0.1 * WINDOW)).toBe(SHARE_HOLD_WINDOWS);
		// A whole window: 1 + 4, the shortest hold.
		expect(await heldWindows(WINDOW)).toBe(SHARE_HOLD_WINDOWS);
	});

	it('beside a steady app, takes what the app\'s rate over the measurement\'s length leaves', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
		const { waitMs } = limiter.lockOut();
		limiter.learning.measure();
		for (let index = 0; index < 600; index++) void limiter.acquire().then((slot) => slot.release());
		// At the full pace (600 to drain), 90 requests in the three quarters of a window after the lockout; then AWeber
		// refuses: the app sent 30 in that time, so it keeps 40 per window.
		await clock.advance(waitMs + 0.75 * WINDOW);
		expect(limiter.sentInWindow()).toBe(90);
		const decision = decideAfterFailure(
			REFUSAL,
			{ rateLimitWaits: 0, transientRetries: 0, refreshRaceRetried: false, outcomeUnknown: false },
			{ repeatable: true, canRecoverDuplicate: false },
			{
				notAnAnswer: false,
				lostRefreshRace: false,
				account: {
					sentInWindow: limiter.sentInWindow(),
					ceiling: LIMIT,
					lockedOut: limiter.isLockedOut(),
					share: limiter.learning.state(),
					measuredWindows: limiter.learning.measuredWindows(),
					learning: true,
				},
				backoffBaseMs: 1_000,
			},
		);
		expect(decision).toMatchObject({ action: 'wait-out-lockout', lowerShareTo: 79 });
	});

	it('ends a measurement with no refusal a counted window (the window and 1 %) after the lockout ends', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
		const { waitMs } = limiter.lockOut();
		limiter.learning.measure();
		await clock.advance(waitMs + 60_600 - 1);
		expect(limiter.learning.state()).toBe('measuring');
		await clock.advance(1);
		expect(limiter.learning.state()).toBe('full');
	});

	/** A limiter that measures after a lockout with `waiting` requests queued, a little over a window after it ended. */
	async function quietMeasurement(waiting: number) {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
		const { waitMs } = limiter.lockOut();
		limiter.learning.measure();
		for (let index = 0; index < waiting; index++) void limiter.acquire().then((slot) => slot.release());
		await clock.advance(waitMs + 1.1 * WINDOW);
		return { clock, limiter };
	}

	it('keeps the full limit when a window passes after the lockout without a refusal at the full pace', async () => {
		const { limiter } = await quietMeasurement(1_000);

		expect(limiter.learning.state()).toBe('full');
		expect(limiter.learning.share()).toBe(LIMIT);
		expect(limiter.learning.takeRecoveredShare()).toBe(LIMIT);
	});

	it('after a quiet measurement at a slower pace, rises from that pace; a refusal then holds it for the plain hold', async () => {
		// 100 waiting: the slowest pace, a window's worth drained in four windows (30 per window), which the others left room for.
		const { clock, limiter } = await quietMeasurement(100);
		expect(limiter.learning.state()).toBe('settled');
		expect(limiter.learning.share()).toBe(30);

		limiter.learning.lower(25);
		await clock.advance(SHARE_HOLD_WINDOWS * WINDOW);
		expect(limiter.learning.share()).toBe(25);
		await clock.advance(WINDOW);
		expect(limiter.learning.share()).toBe(26);
	});

	it('with a limit of one request per window, a measurement refused before this process sent anything keeps the full limit', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 1, windowMs: WINDOW }, clock);
		limiter.lockOut();
		limiter.learning.measure();
		// What the refusal's decision asks for: one request per window, which is the whole limit.
		expect(limiter.learning.lower(measuredShare(0, 1)!)).toBe(1);
		expect(limiter.learning.state()).toBe('full');
		expect(limiter.learning.share()).toBe(1);
	});
});

describe('Reading the share', () => {
	it('after a quiet measurement, the share rises from the measurement\'s end however often it is read', async () => {
		/** A measurement whose few requests finished long before it ended quietly, five windows on; `readEachWindow` reads the share meanwhile. */
		async function shareFiveWindowsOn(readEachWindow: boolean) {
			const clock = new ManualClock();
			const limiter = new AccountRateLimiter({ requests: LIMIT, windowMs: WINDOW }, clock);
			limiter.lockOut();
			limiter.learning.measure();
			for (let index = 0; index < 10; index++) void limiter.acquire().then((slot) => slot.release());
			for (let window = 0; window < 5; window++) {
				await clock.advance(WINDOW);
				if (readEachWindow) limiter.learning.share();
			}
			return limiter.learning.share();
		}

		const read = await shareFiveWindowsOn(true);
		expect(await shareFiveWindowsOn(false)).toBe(read);
		expect(read).toBeLessThan(LIMIT);
	});
});

describe('The share arithmetic', () => {
	it('measures at a pace that drains the waiting requests (at least a window\'s worth) in four windows, at most the limit', () => {
		expect([1, 100, 320, 400, 480, 5_000].map((waiting) => measuringPace(waiting, 120))).toEqual([30, 30, 80, 100, 120, 120]);
	});

	it('settles at what this process sent while measuring, less one, never below one', () => {
		expect(measuredShare(40, 120)).toBe(39);
		expect(measuredShare(60, 120)).toBe(59);
		expect(measuredShare(1, 120)).toBe(1);
	});

	it('takes what a steady other app leaves when this process got more than two thirds while measuring', () => {
		// The app sent 30 in the three quarters of a window this process measured: it keeps 40 per window.
		expect(measuredShare(90, 120, 0.75)).toBe(79);
		// Measured for a window or more, the app's part of the window is its rate.
		expect(measuredShare(82, 120, 1.2)).toBe(81);
		expect(measuredShare(120, 120)).toBeUndefined();
	});

	it('takes exactly two thirds for processes measuring alike, not for steady traffic, however short the measurement', () => {
		// 80 of 120 in half a window: alike processes split unevenly; read as steady traffic it would leave 40.
		expect(measuredShare(80, 120, 0.5)).toBe(79);
		expect(measuredShare(81, 120, 0.5)).toBe(41);
	});

	it('lowers to what this process sent in the refused window, less one, never below one', () => {
		expect(shareAfterRefusal(60, 120)).toBe(59);
		expect(shareAfterRefusal(1, 120)).toBe(1);
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
