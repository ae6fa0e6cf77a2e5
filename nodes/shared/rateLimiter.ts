import { sleep } from 'n8n-workflow';

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

const WAKE_STEP_MS = 1_000;

const systemClock: LimiterClock = {
	now: () => Date.now(),
	sleep: async (ms) => await sleep(ms),
};

export interface RateLimitSlot {
	/** How long the request waited for its turn. */
	waitedMs: number;
	/** Call when the response (or the failure) arrived; calling again does nothing. */
	release(): void;
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

/** The execution was cancelled (or hit its timeout) while the request waited for its turn. */
export class RateLimitWaitAborted extends Error {
	constructor() {
		super('Stopped waiting for the AWeber rate limit: the execution was cancelled');
		this.name = 'RateLimitWaitAborted';
	}
}

/**
 * Requests of one account in flight at once. AWeber only limits requests per minute, but n8n starts
 * every item of a node together; a few parallel requests already reach the limit, and keeping the
 * rest queued spreads the load and bounds how many requests meet an expired token at the same moment.
 */
export const MAX_CONCURRENT_REQUESTS = 4;

interface Waiter {
	priority: boolean;
	start(): void;
}

/**
 * Keeps one AWeber account under its sliding-window limit within this process.
 *
 * A request counts from the moment it is sent until one window (plus a small margin) after its response
 * arrived: AWeber counted it at some point before answering, so this can never undercount at AWeber's
 * end, whatever the network did. Requests start in arrival order (continuations first), at most
 * MAX_CONCURRENT_REQUESTS at a time. Memory stays bounded by the limit: only the finish times that
 * still count are kept.
 */
export class AccountRateLimiter {
	/** Response times of finished requests that still count in the window, oldest first. */
	private readonly finishedAt: number[] = [];

	private inFlight = 0;

	private lockedUntil = 0;

	private readonly waiters: Waiter[] = [];

	/** The earliest pending wake-up, so waiting on a full window schedules one timer, not one per request. */
	private wakeAt = Infinity;

	constructor(
		public settings: RateLimitSettings,
		private readonly clock: LimiterClock = systemClock,
	) {}

	/** Requests waiting for their turn. */
	get queued(): number {
		return this.waiters.length;
	}

	/** Waits for the request's turn; release the slot when its response (or failure) arrived. */
	async acquire(options: AcquireOptions = {}): Promise<RateLimitSlot> {
		const { signal } = options;
		if (signal?.aborted) throw new RateLimitWaitAborted();
		const enqueuedAt = this.clock.now();
		return await new Promise<RateLimitSlot>((resolve, reject) => {
			const stopListening = signal
				? whenAborted(signal, () => {
						const index = this.waiters.indexOf(waiter);
						if (index >= 0) this.waiters.splice(index, 1);
						reject(new RateLimitWaitAborted());
					})
				: () => undefined;
			const waiter: Waiter = {
				priority: options.priority === true,
				start: () => {
					stopListening();
					resolve(this.startRequest(enqueuedAt));
				},
			};
			const firstOrdinary = waiter.priority ? this.waiters.findIndex((queued) => !queued.priority) : -1;
			if (firstOrdinary >= 0) this.waiters.splice(firstOrdinary, 0, waiter);
			else this.waiters.push(waiter);
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
		const started = this.lockedUntil <= now;
		this.lockedUntil = Math.max(this.lockedUntil, now + this.settings.windowMs + this.margin());
		return { waitMs: this.lockedUntil - now, started };
	}

	/** A rough time until a request queued now would start, to tell the user; not used for pacing. */
	estimateWaitMs(): number {
		const now = this.clock.now();
		const perRequest = (this.settings.windowMs + this.margin()) / this.settings.requests;
		const next = this.nextStartAt(now) ?? now + perRequest;
		return Math.max(0, next - now) + this.waiters.length * perRequest;
	}

	private startRequest(enqueuedAt: number): RateLimitSlot {
		this.inFlight++;
		let released = false;
		return {
			waitedMs: this.clock.now() - enqueuedAt,
			release: () => {
				if (released) return;
				released = true;
				this.inFlight--;
				this.finishedAt.push(this.clock.now());
				this.pump();
			},
		};
	}

	/** Starts every waiting request that may start now, then sleeps until the next one may. */
	private pump(): void {
		while (this.waiters.length > 0) {
			const now = this.clock.now();
			const startAt = this.nextStartAt(now);
			// Every counted request is still in flight: a response will call pump again.
			if (startAt === undefined) return;
			if (startAt > now) {
				this.wakeUpAt(startAt);
				return;
			}
			this.waiters.shift()!.start();
		}
	}

	/** When the next request may start, or undefined while only a response can free a place. */
	private nextStartAt(now: number): number | undefined {
		const { requests, windowMs } = this.settings;
		const counted = windowMs + this.margin();
		while (this.finishedAt.length > 0 && this.finishedAt[0] + counted <= now) this.finishedAt.shift();
		if (this.inFlight >= Math.min(MAX_CONCURRENT_REQUESTS, requests)) return undefined;
		let startAt = Math.max(now, this.lockedUntil);
		// Over the limit, the oldest finished requests have to leave the window first.
		const mustLeave = this.inFlight + this.finishedAt.length - requests + 1;
		if (mustLeave > 0) {
			if (mustLeave > this.finishedAt.length) return undefined;
			startAt = Math.max(startAt, this.finishedAt[mustLeave - 1] + counted);
		}
		return startAt;
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
				if (this.waiters.length > 0) this.wakeUpAt(time);
				return;
			}
			this.pump();
		});
	}

	private margin(): number {
		// Slack for clocks and AWeber's own rounding (0.6 s of AWeber's minute), on top of counting from the
		// response, which already comes after AWeber counted the request; 1 % keeps throughput near the limit.
		return Math.max(5, this.settings.windowMs * 0.01);
	}
}

const limiters = new Map<string, AccountRateLimiter>();

/** One limiter per AWeber credential per process, shared by every AWeber node and workflow. */
export function rateLimiterFor(key: string, settings: RateLimitSettings): AccountRateLimiter {
	let limiter = limiters.get(key);
	if (!limiter) {
		limiter = new AccountRateLimiter(settings);
		limiters.set(key, limiter);
	} else if (limiter.settings.requests !== settings.requests || limiter.settings.windowMs !== settings.windowMs) {
		limiter.settings = settings;
	}
	return limiter;
}

/** One 'abort' listener per signal however many waits share it (every queued item of a run waits on the run's). */
const abortHandlers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `handler` when `signal` aborts; returns what stops listening. */
export function whenAborted(signal: AbortSignal, handler: () => void): () => void {
	let handlers = abortHandlers.get(signal);
	if (!handlers) {
		const registered = new Set<() => void>();
		handlers = registered;
		abortHandlers.set(signal, registered);
		signal.addEventListener(
			'abort',
			() => {
				for (const aborted of [...registered]) aborted();
				registered.clear();
			},
			{ once: true },
		);
	}
	handlers.add(handler);
	return () => {
		handlers.delete(handler);
	};
}
