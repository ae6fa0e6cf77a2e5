import { sleep } from 'n8n-workflow';

import { ShareLearning } from './shareLearning';
import { WaitingRequests, type TurnOrder } from './waitingRequests';

export { WaitingRequests, NO_EXECUTION, type TurnOrder } from './waitingRequests';

export interface RateLimitSettings {
	/** Requests AWeber allows per window for one account (120). */
	requests: number;
	/** The window, and the lockout after a refusal (60 s at AWeber). */
	windowMs: number;
}

/** The limiter's time source (unit tests pass a manual one). */
export interface LimiterClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

/** The longest single sleep of a wait (see wakeUpAt). */
const WAKE_STEP_MS = 1_000;

/** Monotonic: a step of the wall clock must not stretch or shorten a wait (docs/rate-limits.md). */
const systemClock: LimiterClock = {
	now: () => performance.now(),
	sleep: async (ms) => await sleep(ms),
};

export interface RateLimitSlot {
	waitedMs: number;
	/** Once the answer came (again: nothing). `refused`: a "Rate Limit Error", which AWeber did not count. */
	release(outcome?: { refused?: boolean }): void;
}

export interface AcquireOptions {
	/** Work under way (a follow-up, a retry) goes first: items finish one by one, a retried write keeps its place. */
	priority?: boolean;
	signal?: AbortSignal;
	/** The execution it belongs to (n8n's execution ID): executions with requests waiting take turns (waitingRequests.ts). */
	execution?: string;
}

/** In flight at once per account: a few already reach AWeber's limit, and fewer meet an expired token together. */
export const MAX_CONCURRENT_REQUESTS = 4;

export interface LimiterOptions {
	clock?: LimiterClock;
	/** False: pace at the credential's full limit whatever AWeber answers (the benchmark's baseline, bench/multiProcess.ts). */
	learnShare?: boolean;
	/**
	 * `first-come`: one queue in order of arrival, the window's places used as soon as they free (the behaviour before
	 * fair turns, the benchmark's baseline, bench/fairTurns.ts). Default `fair`.
	 */
	turns?: TurnOrder;
}

/**
 * While more requests wait than the window has free places, a turn comes at least this often, in shares of the even
 * spacing (the window over the limit): 1.5 leaves a third of the window to go at once when its places free, and spreads
 * the rest a little wider than evenly (0.76 s at AWeber's 120 per minute), so another execution's sign-up, two requests,
 * waits about two such gaps rather than for the next minute (docs/rate-limits.md#turns-between-executions).
 */
const TURN_GAP_IN_EVEN_SPACINGS = 1.5;

/** One account's sliding-window limit in this process: a request counts until a window after its answer (docs/rate-limits.md). */
export class AccountRateLimiter {
	/** Finished requests that still count in the window, oldest first. */
	private readonly finished: Array<{ at: number; refused: boolean }> = [];

	private readonly waiting: WaitingRequests;
	private readonly spreadsTurns: boolean;
	/** This process's share of the account (shareLearning.ts); read and changed by the request path's failure handling. */
	readonly learning: ShareLearning;
	private readonly clock: LimiterClock;
	readonly learnsShare: boolean;
	private inFlight = 0;
	private lockoutEnd = 0;
	/** The earliest pending wake-up: one timer, not one per request. */
	private wakeAt = Infinity;

	constructor(
		public settings: RateLimitSettings,
		options: LimiterClock | LimiterOptions = {},
	) {
		const { clock = systemClock, learnShare = true, turns = 'fair' } = 'now' in options ? { clock: options } : options;
		this.clock = clock;
		this.waiting = new WaitingRequests(turns);
		this.spreadsTurns = turns === 'fair';
		this.learnsShare = learnShare;
		this.learning = new ShareLearning({
			now: () => this.clock.now(),
			settings: () => this.settings,
			countedMs: () => this.countedMs(),
			lockedUntil: () => this.lockoutEnd,
		});
	}

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
				{ priority: options.priority === true, signal, execution: options.execution },
				() => resolve(this.startRequest(enqueuedAt)),
				() => reject(new RateLimitWaitAborted()),
			);
			this.pump();
		});
	}

	/** A "Rate Limit Error": how long the lockout lasts, and whether this refusal started it (the user is told once). */
	lockOut(): { waitMs: number; started: boolean } {
		const now = this.clock.now();
		const started = this.lockoutEnd <= now;
		// From the refusal that started it (docs/aweber-behaviour.md#rate-limit): the share measurement relies on it.
		if (started) this.lockoutEnd = now + this.countedMs();
		return { waitMs: this.lockoutEnd - now, started };
	}

	isLockedOut(): boolean {
		return this.lockoutEnd > this.clock.now();
	}

	/** Requests AWeber surely counted in the window: answered, not refused (those in flight are left out, which is safer). */
	sentInWindow(): number {
		const since = this.clock.now() - this.countedMs();
		return this.finished.filter((request) => request.at > since && !request.refused).length;
	}

	/** A rough time until a request queued now would start, to tell the user; not used for pacing. */
	estimateWaitMs(): number {
		const now = this.clock.now();
		this.dropExpired(now);
		const perRequest = this.countedMs() / (this.learning.measuring()?.pace ?? this.learning.share());
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

	/** When the next request may start, or undefined while only a response can free a place (expired requests dropped first). */
	private nextStartAt(now: number): number | undefined {
		const requests = this.learning.share();
		if (this.inFlight >= Math.min(MAX_CONCURRENT_REQUESTS, requests)) return undefined;
		const startAt = Math.max(now, this.lockoutEnd, this.learning.measuring()?.nextAt ?? 0);
		return Math.max(startAt, this.placeFreeAt(requests));
	}

	/**
	 * When a place of the window is free for the next request. Over the limit, the oldest finished requests have to leave
	 * the window first (fewer in flight than `requests`, checked by the caller, so the one to wait for is a finished one).
	 * While more requests wait than places are free, also: for each k up to the window's spread turns, the k-th turn
	 * after this one, a gap later each, still finds a place (a free one kept, or one that left by then).
	 */
	private placeFreeAt(requests: number): number {
		const free = requests - this.inFlight - this.finished.length;
		// Not while sharing the account with other processes or apps: the share learning reads what this process had sent
		// when AWeber refused (shareLearning.ts), and spreading would change it.
		const spread = this.spreadsTurns && this.waiting.length > free && this.learning.state() === 'full';
		const gapMs = (TURN_GAP_IN_EVEN_SPACINGS * this.countedMs()) / requests;
		const turns = spread ? Math.floor(requests / TURN_GAP_IN_EVEN_SPACINGS) : 0;
		let at = -Infinity;
		for (let k = Math.max(0, free); k <= turns || k === 0; k++) {
			// The (k - free + 1)-th finished request to leave; beyond those known, the ones in flight leave later still.
			const leaving = this.finished[k - free];
			if (!leaving) break;
			at = Math.max(at, leaving.at + this.countedMs() - k * gapMs);
		}
		return at;
	}

	private dropExpired(now: number): void {
		while (this.finished.length > 0 && this.finished[0].at + this.countedMs() <= now) this.finished.shift();
	}

	private wakeUpAt(time: number): void {
		if (time >= this.wakeAt) return;
		this.wakeAt = time;
		// In steps of at most a second: a cancelled run's wait does not keep a timer, and the process, alive.
		void this.clock.sleep(Math.min(time - this.clock.now(), WAKE_STEP_MS)).then(() => {
			// An earlier wake took over; it schedules this one again if it is still needed.
			if (this.wakeAt !== time) return;
			this.wakeAt = Infinity;
			// Before `time` (a step), pump sets the next step; with no one waiting, it sets none.
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

/** One limiter per credential per process; `options` apply when it is made. */
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

// The queue of requests waiting for their turn.

/** The execution was cancelled (or hit its timeout) while the request waited for its turn. */
export class RateLimitWaitAborted extends Error {
	constructor() {
		super('Stopped waiting for the AWeber rate limit: the execution was cancelled');
		this.name = 'RateLimitWaitAborted';
	}
}

/**
 * Calls `handler` once when `signal` aborts; returns what stops listening. On a signal of its own that follows
 * `signal`: Node warns about more than ten listeners on one signal, and a run's retries wait on its one by the dozen.
 */
export function whenAborted(signal: AbortSignal, handler: () => void): () => void {
	const following = AbortSignal.any([signal]);
	following.addEventListener('abort', handler, { once: true });
	return () => following.removeEventListener('abort', handler);
}
