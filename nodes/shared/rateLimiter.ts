import { sleep } from 'n8n-workflow';

import { ShareLearning, type ShareState } from './shareLearning';
import { RateLimitWaitAborted, WaitingRequests } from './waitingRequests';

export interface RateLimitSettings {
	/** Requests AWeber allows per window for one account (120). */
	requests: number;
	/** The window, and the lockout after a refusal (60 s at AWeber). */
	windowMs: number;
}

/** The limiter's time source; unit tests pass a manual one so nothing depends on real time. */
export interface LimiterClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

/** The longest single sleep of a wait (see wakeUpAt). */
const WAKE_STEP_MS = 1_000;

/**
 * Waits and windows are measured on the monotonic clock: a step of the wall clock (an NTP correction, a resumed VM)
 * must not stretch or shorten them (docs/rate-limits.md).
 */
const systemClock: LimiterClock = {
	now: () => performance.now(),
	sleep: async (ms) => await sleep(ms),
};

export interface RateLimitSlot {
	/** How long the request waited for its turn. */
	waitedMs: number;
	/**
	 * Call when the response (or the failure) arrived; calling again does nothing. `refused`: AWeber refused it
	 * with "Rate Limit Error", so AWeber did not count it (it still counts in this process's pacing, to be safe).
	 */
	release(outcome?: { refused?: boolean }): void;
}

export interface AcquireOptions {
	/**
	 * The continuation of work already under way (a follow-up request or a retry) goes ahead of requests
	 * that have not started: items then finish one by one instead of all at the end of a bulk run, and a
	 * retried write keeps its place relative to the writes after it.
	 */
	priority?: boolean;
	/** The execution's cancel signal: a waiting request gives up when it fires. */
	signal?: AbortSignal;
}

/**
 * Requests of one account in flight at once. AWeber only limits requests per minute, but n8n starts
 * every item of a node together; a few parallel requests already reach the limit, and keeping the
 * rest queued spreads the load and bounds how many requests meet an expired token at the same moment.
 */
export const MAX_CONCURRENT_REQUESTS = 4;

export interface LimiterOptions {
	/** The time source (unit tests pass a manual clock). */
	clock?: LimiterClock;
	/**
	 * Learn this process's share of the account from AWeber's refusals (shareLearning.ts); on unless set to false, which
	 * paces at the credential's full limit whatever AWeber answers (the benchmark's baseline, bench/multiProcess.ts).
	 */
	learnShare?: boolean;
}

/**
 * Keeps one AWeber account under its sliding-window limit within this process.
 *
 * A request counts from the moment it is sent until one window (plus a small margin) after its response
 * arrived: AWeber counted it at some point before answering, so this can never undercount at AWeber's
 * end, whatever the network did. Requests start in arrival order (continuations first), at most
 * MAX_CONCURRENT_REQUESTS at a time, and at most this process's share of the account per window (shareLearning.ts).
 * Memory stays bounded by the limit: only the finish times that still count are kept.
 */
export class AccountRateLimiter {
	/** Finished requests that still count in the window, oldest first: when the response came, and whether AWeber refused it. */
	private readonly finished: Array<{ at: number; refused: boolean }> = [];

	private readonly waiting = new WaitingRequests();
	private readonly learning: ShareLearning;
	private readonly clock: LimiterClock;

	/** Whether this limiter learns its share of the account (LimiterOptions.learnShare). */
	readonly learnsShare: boolean;

	private inFlight = 0;
	private lockoutEnd = 0;

	/** The earliest pending wake-up, so waiting on a full window schedules one timer, not one per request. */
	private wakeAt = Infinity;

	constructor(
		public settings: RateLimitSettings,
		options: LimiterClock | LimiterOptions = {},
	) {
		const { clock = systemClock, learnShare = true } = 'now' in options ? { clock: options } : options;
		this.clock = clock;
		this.learnsShare = learnShare;
		this.learning = new ShareLearning({
			now: () => this.clock.now(),
			settings: () => this.settings,
			countedMs: () => this.countedMs(),
			lockedUntil: () => this.lockoutEnd,
		});
	}

	/** Requests waiting for their turn. */
	get queued(): number {
		return this.waiting.length;
	}

	/** Waits for the request's turn; release the slot when its response (or failure) arrived. */
	async acquire(options: AcquireOptions = {}): Promise<RateLimitSlot> {
		const { signal } = options;
		if (signal?.aborted) throw new RateLimitWaitAborted();
		const enqueuedAt = this.clock.now();
		return await new Promise<RateLimitSlot>((resolve, reject) => {
			this.waiting.add(
				{ priority: options.priority === true, signal },
				() => resolve(this.startRequest(enqueuedAt)),
				() => reject(new RateLimitWaitAborted()),
			);
			this.pump();
		});
	}

	/**
	 * AWeber refused with "Rate Limit Error" and locks the account out for one window.
	 * Returns how long the lockout lasts, and whether this refusal started it (the other requests
	 * refused in the same moment only confirm it, so the user is told once).
	 */
	lockOut(): { waitMs: number; started: boolean } {
		const now = this.clock.now();
		const started = this.lockoutEnd <= now;
		// The lockout runs from the refusal that started it: the requests refused in the same moment do not prolong it
		// (docs/aweber-behaviour.md#rate-limit), and every process on the account then starts again at about the same
		// time, which the share measurement relies on.
		if (started) this.lockoutEnd = now + this.countedMs();
		return { waitMs: this.lockoutEnd - now, started };
	}

	/** Whether a lockout is being waited out (a refusal now only confirms it). */
	isLockedOut(): boolean {
		return this.lockoutEnd > this.clock.now();
	}

	/**
	 * Requests of this process AWeber surely counted in the current window: answered and not refused. Requests still
	 * in flight when a refusal comes are left out: most were sent after AWeber locked the account and will be refused
	 * too, and counting too few only makes the learned share safer.
	 */
	sentInWindow(): number {
		const since = this.clock.now() - this.countedMs();
		return this.finished.filter((request) => request.at > since && !request.refused).length;
	}

	/** Requests this process may send per window now: the credential's limit, or its learned share of the account. */
	share(): number {
		return this.learning.share();
	}

	/** Where the share stands (ShareState). */
	shareState(): ShareState {
		return this.learning.state();
	}

	/** How long the measurement under way has lasted, in windows; undefined when not measuring. */
	measuredWindows(): number | undefined {
		return this.learning.measuredWindows();
	}

	/** The pace of the measurement under way, in requests per window; undefined when not measuring. */
	measuringPace(): number | undefined {
		return this.learning.measuring()?.pace;
	}

	/** A refusal showed other traffic while this process used its full limit: measure its share once the lockout ends. */
	measureShare(): void {
		if (this.learnsShare) this.learning.measure();
	}

	/** Settles this process's share at `to` (ShareLearning.lower); returns the share now in force. */
	lowerShare(to: number): number {
		return this.learnsShare ? this.learning.lower(to) : this.share();
	}

	/** The full limit once a learned share grew back to it, reported once. */
	takeRecoveredShare(): number | undefined {
		return this.learning.takeRecoveredShare();
	}

	/** A rough time until a request queued now would start, to tell the user; not used for pacing. */
	estimateWaitMs(): number {
		const now = this.clock.now();
		const perRequest = this.countedMs() / (this.measuringPace() ?? this.share());
		const next = this.nextStartAt(now) ?? now + perRequest;
		return Math.max(0, next - now) + this.waiting.length * perRequest;
	}

	private startRequest(enqueuedAt: number): RateLimitSlot {
		this.inFlight++;
		// Paced on the requests still waiting (this one aside), so that each process's part follows its work.
		this.learning.started(this.waiting.length);
		let released = false;
		return {
			waitedMs: this.clock.now() - enqueuedAt,
			release: (outcome) => {
				if (released) return;
				released = true;
				this.inFlight--;
				this.finished.push({ at: this.clock.now(), refused: outcome?.refused === true });
				this.pump();
			},
		};
	}

	/** Starts every waiting request that may start now, then sleeps until the next one may. */
	private pump(): void {
		while (this.waiting.length > 0) {
			const now = this.clock.now();
			this.dropExpired(now);
			const startAt = this.nextStartAt(now);
			// Every counted request is still in flight: a response will call pump again.
			if (startAt === undefined) return;
			if (startAt > now) {
				this.wakeUpAt(startAt);
				return;
			}
			this.waiting.startNext();
		}
	}

	/** When the next request may start, or undefined while only a response can free a place. */
	private nextStartAt(now: number): number | undefined {
		const requests = this.share();
		const stillCounted = this.finished.filter((request) => request.at + this.countedMs() > now);
		if (this.inFlight >= Math.min(MAX_CONCURRENT_REQUESTS, requests)) return undefined;
		let startAt = Math.max(now, this.lockoutEnd, this.learning.measuring()?.nextAt ?? 0);
		// Over the limit, the oldest finished requests have to leave the window first.
		const mustLeave = this.inFlight + stillCounted.length - requests + 1;
		if (mustLeave > 0) {
			if (mustLeave > stillCounted.length) return undefined;
			startAt = Math.max(startAt, stillCounted[mustLeave - 1].at + this.countedMs());
		}
		return startAt;
	}

	private dropExpired(now: number): void {
		while (this.finished.length > 0 && this.finished[0].at + this.countedMs() <= now) this.finished.shift();
	}

	private wakeUpAt(time: number): void {
		if (time >= this.wakeAt) return;
		this.wakeAt = time;
		// In steps of at most a second, so that a wait (a minute's lockout) stops soon after its requests are
		// gone (a cancelled run) instead of keeping a timer, and the process, alive for the rest of it.
		void this.clock.sleep(Math.min(time - this.clock.now(), WAKE_STEP_MS)).then(() => {
			// An earlier wake took over; it schedules this one again if it is still needed.
			if (this.wakeAt !== time) return;
			this.wakeAt = Infinity;
			if (this.clock.now() < time) {
				if (this.waiting.length > 0) this.wakeUpAt(time);
				return;
			}
			this.pump();
		});
	}

	/** How long a request counts after its answer: the window, plus slack for clocks and AWeber's own rounding. */
	private countedMs(): number {
		// 0.6 s of AWeber's minute, on top of counting from the response, which already comes after AWeber counted the
		// request; 1 % keeps throughput near the limit.
		return this.settings.windowMs + Math.max(5, this.settings.windowMs * 0.01);
	}
}

const limiters = new Map<string, AccountRateLimiter>();

/**
 * One limiter per AWeber credential per process, shared by every AWeber node and workflow. `options` apply when the
 * limiter is made (the first call for the credential).
 */
export function rateLimiterFor(key: string, settings: RateLimitSettings, options?: LimiterOptions): AccountRateLimiter {
	let limiter = limiters.get(key);
	if (!limiter) {
		limiter = new AccountRateLimiter(settings, options);
		limiters.set(key, limiter);
	} else if (limiter.settings.requests !== settings.requests || limiter.settings.windowMs !== settings.windowMs) {
		limiter.settings = settings;
	}
	return limiter;
}
