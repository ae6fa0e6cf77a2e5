import { getEventListeners } from 'node:events';

import {
	AccountRateLimiter,
	MAX_CONCURRENT_REQUESTS,
	RateLimitWaitAborted,
	rateLimiterFor,
	whenAborted,
	type RateLimitSlot,
} from '../../nodes/shared/rateLimiter';

import { ManualClock } from './manualClock';

const WINDOW = 60_000;

/** Starts requests that each hold their slot for `latency` ms, recording when each started. */
function startRequests(limiter: AccountRateLimiter, clock: ManualClock, count: number, latency = 100) {
	const started: Array<{ index: number; at: number }> = [];
	const finished: number[] = [];
	for (let index = 0; index < count; index++) {
		void limiter.acquire().then(async (slot) => {
			started.push({ index, at: clock.now() });
			await clock.sleep(latency);
			slot.release();
			finished.push(clock.now());
		});
	}
	return { started, finished };
}

describe('AccountRateLimiter', () => {
	it('counts as sent in the window the answered requests of the last window, not the refused ones (what the share learning reads)', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		const early = await limiter.acquire();
		early.release();
		await clock.advance(WINDOW / 2);
		const slots = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
		slots[0].release();
		slots[1].release();
		slots[2].release({ refused: true });
		expect(limiter.sentInWindow()).toBe(3);
		// A window and its slack after the first answer: only the two answered later still count.
		await clock.advance(WINDOW / 2 + WINDOW / 50);
		expect(limiter.sentInWindow()).toBe(2);
		await clock.advance(WINDOW);
		expect(limiter.sentInWindow()).toBe(0);
	});

	it('never lets more requests than the limit start within any window, counted from each response', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 10, windowMs: WINDOW }, clock);
		const { started, finished } = startRequests(limiter, clock, 45);
		await clock.advance(10 * WINDOW);
		expect(started).toHaveLength(45);
		for (let later = 10; later < started.length; later++) {
			// The request 10 places earlier must have finished at least one window before this one started.
			expect(started[later].at).toBeGreaterThanOrEqual(finished[later - 10] + WINDOW);
		}
	});

	it('starts requests in the order they asked, with continuations of started work first', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 2, windowMs: WINDOW }, clock);
		const order: string[] = [];
		const take = (name: string, priority = false) =>
			limiter.acquire({ priority }).then((slot) => {
				order.push(name);
				slot.release();
			});
		const all = [take('a'), take('b'), take('c'), take('d'), take('retry of a', true), take('follow-up of b', true)];
		await clock.advance(5 * WINDOW);
		await Promise.all(all);
		expect(order).toEqual(['a', 'b', 'retry of a', 'follow-up of b', 'c', 'd']);
	});

	it(`keeps at most ${MAX_CONCURRENT_REQUESTS} requests in flight`, async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		const slots: RateLimitSlot[] = [];
		for (let index = 0; index < 10; index++) void limiter.acquire().then((slot) => slots.push(slot));
		await clock.advance(0);
		expect(slots).toHaveLength(MAX_CONCURRENT_REQUESTS);
		expect(limiter.queued).toBe(10 - MAX_CONCURRENT_REQUESTS);
		slots[0].release();
		slots[0].release(); // a second release changes nothing
		await clock.advance(0);
		expect(slots).toHaveLength(MAX_CONCURRENT_REQUESTS + 1);
	});

	it('holds every request back until a lockout has passed', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		const first = limiter.lockOut();
		expect(first.started).toBe(true);
		expect(first.waitMs).toBeGreaterThanOrEqual(WINDOW);
		expect(limiter.lockOut().started).toBe(false);
		let startedAt: number | undefined;
		void limiter.acquire().then((slot) => {
			startedAt = clock.now();
			slot.release();
		});
		await clock.advance(WINDOW - 1);
		expect(startedAt).toBeUndefined();
		await clock.advance(2 * WINDOW);
		expect(startedAt).toBeGreaterThanOrEqual(WINDOW);
	});

	it('holds back, until a lockout has passed, the request that would take the last place of the window', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 3, windowMs: WINDOW }, clock);
		for (let index = 0; index < 2; index++) (await limiter.acquire()).release();
		const { waitMs } = limiter.lockOut();
		let startedAt: number | undefined;
		void limiter.acquire().then((slot) => {
			startedAt = clock.now();
			slot.release();
		});
		await clock.advance(waitMs - 1);
		expect(startedAt).toBeUndefined();
		await clock.advance(1_000);
		expect(startedAt).toBeGreaterThanOrEqual(waitMs);
	});

	it('ends a lockout, and stops counting an answered request, at the very moment the next request may start', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 1, windowMs: WINDOW }, clock);
		(await limiter.acquire()).release();
		const { waitMs } = limiter.lockOut();
		await clock.advance(waitMs - 1);
		expect([limiter.isLockedOut(), limiter.sentInWindow(), limiter.estimateWaitMs()]).toEqual([true, 1, 1]);
		await clock.advance(1);
		expect([limiter.isLockedOut(), limiter.sentInWindow(), limiter.estimateWaitMs()]).toEqual([false, 0, 0]);
		let startedAt: number | undefined;
		void limiter.acquire().then(() => (startedAt = clock.now()));
		await clock.advance(0);
		expect(startedAt).toBe(waitMs);
		// A refusal now starts a new lockout, of a whole window.
		expect(limiter.lockOut()).toEqual({ started: true, waitMs });
	});

	it('counts a lockout from the refusal that started it: refusals met during it do not make it longer', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		const first = limiter.lockOut();
		await clock.advance(WINDOW / 3);
		const second = limiter.lockOut();
		expect(second).toEqual({ started: false, waitMs: first.waitMs - WINDOW / 3 });
		let startedAt: number | undefined;
		void limiter.acquire().then((slot) => {
			startedAt = clock.now();
			slot.release();
		});
		await clock.advance(second.waitMs + 1_000);
		expect(startedAt).toBeLessThanOrEqual(first.waitMs + 1_000);
	});

	it('makes a queue wait on one timer, not one per request, and keeps none once a cancelled run\'s requests left it', async () => {
		const clock = new ManualClock();
		let timers = 0;
		const sleep = clock.sleep.bind(clock);
		clock.sleep = async (ms: number) => {
			timers++;
			try {
				await sleep(ms);
			} finally {
				timers--;
			}
		};
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		limiter.lockOut();
		const run = new AbortController();
		const waits = Array.from({ length: 50 }, async () => await limiter.acquire({ signal: run.signal }).catch(() => 'stopped'));
		await clock.advance(WINDOW / 2);
		expect(timers).toBe(1);
		run.abort();
		expect(await Promise.all(waits)).toEqual(Array(50).fill('stopped'));
		// The timer's next step (at most a second away) finds no one waiting and sets no other.
		await clock.advance(1_000);
		expect(timers).toBe(0);
	});

	it('lets a cancelled execution stop waiting, and the requests behind it move up', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 1, windowMs: WINDOW }, clock);
		const first = await limiter.acquire();
		const controller = new AbortController();
		const cancelled = limiter.acquire({ signal: controller.signal });
		let nextStarted = false;
		void limiter.acquire().then(() => (nextStarted = true));
		controller.abort();
		await expect(cancelled).rejects.toBeInstanceOf(RateLimitWaitAborted);
		expect(limiter.queued).toBe(1);
		first.release();
		await clock.advance(2 * WINDOW);
		expect(nextStarted).toBe(true);
	});

	it('estimates the wait of a long queue from the limit', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		startRequests(limiter, clock, 600);
		await clock.advance(0);
		// 596 waiting at 120 per minute: about five minutes.
		expect(limiter.estimateWaitMs()).toBeGreaterThan(4.5 * WINDOW);
		expect(limiter.estimateWaitMs()).toBeLessThan(6 * WINDOW);
	});

	it('estimates a queued request\'s wait as the rest of a lockout, then a share of the window for each request ahead', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		await clock.advance(WINDOW / 6);
		const { waitMs } = limiter.lockOut();
		const perRequest = waitMs / 120;
		expect(limiter.estimateWaitMs()).toBe(waitMs);
		startRequests(limiter, clock, 2);
		await clock.advance(WINDOW / 6);
		expect(limiter.estimateWaitMs()).toBe(waitMs - WINDOW / 6 + 2 * perRequest);
	});

	it(`estimates a request queued behind ${MAX_CONCURRENT_REQUESTS} in flight to wait one share of the window`, async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		for (let index = 0; index < MAX_CONCURRENT_REQUESTS; index++) await limiter.acquire();
		// A lockout lasts as long as a request counts in the window; once it passed, only the answers hold the queue.
		const { waitMs } = limiter.lockOut();
		await clock.advance(2 * waitMs);
		expect(limiter.estimateWaitMs()).toBe(waitMs / 120);
	});

	it('stops every queued request of a cancelled run at once, with one listener on its signal, and keeps the other runs\' requests', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		const run = new AbortController();
		const other = new AbortController();
		for (let index = 0; index < MAX_CONCURRENT_REQUESTS; index++) await limiter.acquire();
		// A run of 50 items waits on its execution's one signal, as n8n gives every item of a run the same one: more than
		// ten listeners on it would make Node log a MaxListenersExceededWarning in n8n's log.
		const cancelled = Array.from({ length: 50 }, async () => await limiter.acquire({ signal: run.signal }));
		const kept = limiter.acquire({ signal: other.signal });
		expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
		run.abort();
		const outcomes = await Promise.allSettled(cancelled);

		expect(outcomes.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof RateLimitWaitAborted)).toBe(true);
		expect(limiter.queued).toBe(1);
		other.abort();
		await expect(kept).rejects.toBeInstanceOf(RateLimitWaitAborted);
	});

	it('leaves no listener on a run\'s signal once its waiting requests started', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, clock);
		const run = new AbortController();
		const slots = Array.from({ length: 20 }, async () => await limiter.acquire({ signal: run.signal }));
		for (const slot of slots) (await slot).release();
		expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
	});

	it('lets dozens of waits on one run\'s signal (its retries) stop when it aborts, without a listener each on it', () => {
		const run = new AbortController();
		let stopped = 0;
		const stops = Array.from({ length: 50 }, () => whenAborted(run.signal, () => stopped++));
		expect(getEventListeners(run.signal, 'abort').length).toBeLessThanOrEqual(1);
		stops[0]();
		run.abort();
		expect(stopped).toBe(49);
	});

	it('paces a credential at its edited limit from the next request on', async () => {
		const clock = new ManualClock();
		const limiter = rateLimiterFor('edited-limit', { requests: 1, windowMs: WINDOW }, { clock });
		(await limiter.acquire()).release();
		// The user raised the credential's limit: the next request goes at once, not a window later.
		expect(rateLimiterFor('edited-limit', { requests: 120, windowMs: WINDOW })).toBe(limiter);
		let startedAt: number | undefined;
		void limiter.acquire().then((slot) => {
			startedAt = clock.now();
			slot.release();
		});
		await clock.advance(0);
		expect(startedAt).toBe(0);
	});

	it('paces a credential at its edited window from the next request on', async () => {
		const clock = new ManualClock();
		const limiter = rateLimiterFor('edited-window', { requests: 1, windowMs: WINDOW }, { clock });
		(await limiter.acquire()).release();
		// A window of one second now: the next request waits about a second, not a minute.
		rateLimiterFor('edited-window', { requests: 1, windowMs: 1_000 });
		let startedAt: number | undefined;
		void limiter.acquire().then((slot) => {
			startedAt = clock.now();
			slot.release();
		});
		await clock.advance(2_000);
		expect(startedAt).toBeGreaterThanOrEqual(1_000);
		expect(startedAt).toBeLessThan(2_000);
	});

	it('made without the share learning (the benchmark\'s baseline), says so and keeps the credential\'s full limit after a lockout', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, { clock, learnShare: false });
		limiter.lockOut();
		// It tells the failure handling, which then neither measures nor lowers the share (shareLearning.test.ts: the baseline).
		expect(limiter.learnsShare).toBe(false);
		expect(limiter.learning.state()).toBe('full');
		// After the lockout, a fresh window at the full limit (a window's worth goes at once), not an even measuring pace.
		const { started } = startRequests(limiter, clock, 120);
		await clock.advance(1.5 * WINDOW);
		expect(started.length).toBe(120);
	});

	describe('turns between executions', () => {
		/** A bulk of `count` requests of one execution, each answered after `latency` ms; when each started. */
		function bulk(limiter: AccountRateLimiter, clock: ManualClock, count: number, execution: string, latency = 100) {
			const started: number[] = [];
			for (let index = 0; index < count; index++) {
				void limiter.acquire({ execution }).then(async (slot) => {
					started.push(clock.now());
					await clock.sleep(latency);
					slot.release();
				});
			}
			return started;
		}

		it('gives an execution that joins while a bulk fills the account a turn within about a second, in every minute of the bulk', async () => {
			for (const turns of ['fair', 'first-come'] as const) {
				const clock = new ManualClock();
				const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, { clock, turns });
				bulk(limiter, clock, 1_000, 'bulk');
				const waits: number[] = [];
				// A sign-up every 7 s (AWeber's time) for 7 minutes, each its own execution.
				for (let signUp = 0; signUp < 60; signUp++) {
					await clock.advance(7_000);
					const askedAt = clock.now();
					void limiter.acquire({ execution: `sign-up ${signUp}` }).then((slot) => {
						waits.push(clock.now() - askedAt);
						slot.release();
					});
				}
				await clock.advance(10 * WINDOW);
				expect(waits).toHaveLength(60);
				if (turns === 'fair') expect(Math.max(...waits)).toBeLessThanOrEqual(1_000);
				// First come: behind the bulk's queue, minutes.
				else expect(Math.max(...waits)).toBeGreaterThan(WINDOW);
			}
		});

		it('alone, a bulk spreads its turns over the window after a third of it went at once, and finishes when first come does', async () => {
			const ends: Record<string, number> = {};
			for (const turns of ['fair', 'first-come'] as const) {
				const clock = new ManualClock();
				const limiter = new AccountRateLimiter({ requests: 120, windowMs: WINDOW }, { clock, turns });
				const started = bulk(limiter, clock, 1_000, 'bulk');
				await clock.advance(10 * WINDOW);
				expect(started).toHaveLength(1_000);
				ends[turns] = started[999];
				if (turns === 'fair') {
					// From the second window on, while the bulk has more waiting than places free, no gap between turns over 0.76 s.
					const gaps = started.slice(121, 960).map((at, index) => at - started[120 + index]);
					expect(Math.max(...gaps)).toBeLessThanOrEqual(760);
					// Still the account's 120 per window.
					expect(started.filter((at) => at < started[0] + WINDOW)).toHaveLength(120);
				}
			}
			// The last window's 40 go at once either way.
			expect(ends.fair).toBeLessThanOrEqual(ends['first-come'] + 1_000);
		});
	});
});
