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
 * Learning the account's share (docs/rate-limits.md#sharing-the-account). AWeber counts every app and process
 * using the account together; a "Rate Limit Error" while this process sent fewer requests than the credential's
 * limit is evidence of traffic it cannot see. What this process sent before that first refusal says little about its
 * fair part: processes that start a moment apart burst at full speed, so the first to start may have sent several
 * times what the others did. So the share is measured once the lockout ends. Every process on the account was
 * locked out by the same refusal and starts again at the same moment; each then paces evenly, at a rate that would
 * drain the requests it has waiting in MEASURE_DRAIN_WINDOWS windows (between MIN_MEASURE_PACE of the limit and the
 * limit), until AWeber refuses again. What each has sent by then is its part of the account in proportion to the
 * work it has left, so processes sharing the account finish about together instead of one running on alone at a
 * small share. Each settles at that part (measuredShare); if no refusal comes within a window, the others left room
 * for the pace kept: at the full limit they have gone, below it the share rises from that pace.
 *
 * A settled share holds while the others, measured alike, still have work: they paced to drain theirs in
 * MEASURE_DRAIN_WINDOWS windows and were refused as soon as this process, so they need about MEASURE_DRAIN_WINDOWS
 * divided by the measurement's length (at least SHARE_HOLD_WINDOWS windows); then it rises by 1, 2, 4, ... requests
 * per window without a refusal, back to the credential's limit, which stays the ceiling. A refusal while the share is
 * settled (the raise
 * went past what the others leave) lowers it to what this process had sent and doubles the hold, up to
 * MAX_SHARE_HOLD_WINDOWS, so a long run alongside other traffic probes, and costs the account a lockout, ever more
 * rarely.
 */
export const SHARE_HOLD_WINDOWS = 5;

export const MAX_SHARE_HOLD_WINDOWS = 40;

/** While measuring, a process paces to drain its waiting requests in this many windows (MIN_MEASURE_PACE..1 of the limit). */
export const MEASURE_DRAIN_WINDOWS = 4;

/** A measurement shorter than this (in windows) did not meet others measuring alike: its hold is the plain one. */
const MIN_MEASURED_WINDOWS = 0.2;

/** The slowest measuring pace, as a part of the limit: two processes measuring together still fill the account within a window. */
const MIN_MEASURE_PACE = 0.6;

/** The lowest share learned: a tenth of the credential's limit, so a refusal met while nearly idle cannot stall the process. */
const MIN_SHARE_FRACTION = 0.1;

/** What a share lowered while settled leaves unused, for the timing AWeber and this process see differently (6 of 120). */
const SETTLED_SLACK = 0.95;

/**
 * What a measured share leaves unused, in requests per window: the measurement counts only the requests AWeber
 * answered since the lockout, all of them in AWeber's window, so the parts of the processes add up to the limit.
 */
const MEASURED_SLACK = 1;

function lowestShare(ceiling: number): number {
	return Math.ceil(ceiling * MIN_SHARE_FRACTION);
}

/**
 * The share after a "Rate Limit Error" while the share was settled, given what this process had sent in AWeber's
 * window; undefined when this process alone filled the credential's limit (the refusal says nothing about others).
 */
export function shareAfterRefusal(sentInWindow: number, ceiling: number): number | undefined {
	if (sentInWindow >= ceiling) return undefined;
	return Math.max(lowestShare(ceiling), Math.floor(sentInWindow * SETTLED_SLACK));
}

/** Requests per window while measuring, for `waiting` requests queued: drains them in MEASURE_DRAIN_WINDOWS windows. */
export function measuringPace(waiting: number, ceiling: number): number {
	return Math.min(ceiling, Math.max(ceiling * MIN_MEASURE_PACE, waiting / MEASURE_DRAIN_WINDOWS));
}

/**
 * The share settled after the measurement: AWeber refused `measuredWindows` windows after this process started
 * measuring, with `sentInWindow` of its requests counted since. The others that measured alike (n8n processes on the
 * same account) each sent their part the same way, so this process keeps its own. When it got more than two thirds
 * of the account, the rest is more likely steady traffic (another app) that keeps its rate: `ceiling - sent` in that
 * time, so this process takes no more than that rate leaves.
 */
export function measuredShare(sentInWindow: number, ceiling: number, measuredWindows = 1): number | undefined {
	if (sentInWindow >= ceiling) return undefined;
	const sent = Math.max(1, sentInWindow);
	let share = sent;
	if (sent > (ceiling * 2) / 3) {
		const othersPerWindow = (ceiling - sent) / Math.min(1, Math.max(MIN_MEASURED_WINDOWS, measuredWindows));
		share = Math.min(sent, ceiling - othersPerWindow);
	}
	return Math.max(lowestShare(ceiling), Math.floor(share) - MEASURED_SLACK);
}

/** The share `quietMs` after it was lowered to `lowered` with no refusal since, held for `holdWindows` first. */
export function shareAfterQuiet(lowered: number, quietMs: number, windowMs: number, ceiling: number, holdWindows = SHARE_HOLD_WINDOWS): number {
	const rising = Math.floor(quietMs / windowMs) - holdWindows;
	if (rising <= 0) return Math.min(lowered, ceiling);
	return Math.min(ceiling, lowered + 2 ** Math.min(rising, 30) - 1);
}

/**
 * Where this process's share stands: the credential's full limit; being measured after a lockout that showed other
 * traffic; or settled below the limit.
 */
export type ShareState = 'full' | 'measuring' | 'settled';

let shareLearning = true;

/** Switches the learning off (every process paces at the credential's full limit); for the benchmark's baseline. */
export function setShareLearning(enabled: boolean): void {
	shareLearning = enabled;
}

export function isShareLearningOn(): boolean {
	return shareLearning;
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
	/** Finished requests that still count in the window, oldest first: when the response came, and whether AWeber refused it. */
	private readonly finished: Array<{ at: number; refused: boolean }> = [];

	/** The share learned from the last refusal that showed other traffic, and when; undefined at the full limit. */
	private learned?: { share: number; at: number; holdWindows: number };

	/**
	 * Set from a refusal that showed other traffic until the share is measured (the next refusal) or a window passed
	 * after the lockout without one: requests then start evenly spaced at the credential's limit, the next one not
	 * before `nextAt`.
	 */
	private measuring?: { nextAt: number; pace: number; firstStartAt?: number };

	/** Set when a learned share grew back to the full limit, until the user was told (takeRecoveredShare). */
	private recoveredTo?: number;

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
		// The lockout runs from the refusal that started it: the requests refused in the same moment do not prolong it
		// (docs/aweber-behaviour.md#rate-limit), and every process on the account then starts again at about the same
		// time, which the share measurement relies on.
		if (started) this.lockedUntil = now + this.settings.windowMs + this.margin();
		return { waitMs: this.lockedUntil - now, started };
	}

	/** Requests this process may send per window now: the credential's limit, or its learned share of the account. */
	share(): number {
		const ceiling = this.settings.requests;
		this.endQuietMeasurement();
		if (!this.learned) return ceiling;
		const { share: lowered, at, holdWindows } = this.learned;
		const share = shareAfterQuiet(lowered, this.clock.now() - at, this.settings.windowMs, ceiling, holdWindows);
		if (share < ceiling) return share;
		this.learned = undefined;
		this.recoveredTo = ceiling;
		return ceiling;
	}

	/**
	 * Requests of this process AWeber surely counted in the current window: answered and not refused. Requests still
	 * in flight when a refusal comes are left out: most were sent after AWeber locked the account and will be refused
	 * too, and counting too few only makes the learned share safer.
	 */
	sentInWindow(): number {
		this.dropExpired(this.clock.now());
		return this.finished.filter((request) => !request.refused).length;
	}

	/** How long the measurement under way has lasted, in windows, from its first request; undefined when not measuring. */
	measuredWindows(): number | undefined {
		if (this.shareState() !== 'measuring' || this.measuring?.firstStartAt === undefined) return undefined;
		return (this.clock.now() - this.measuring.firstStartAt) / this.settings.windowMs;
	}

	/** The pace of the measurement under way, in requests per window; undefined when not measuring. */
	measuringPace(): number | undefined {
		return this.shareState() === 'measuring' ? this.measuring?.pace : undefined;
	}

	/** Where the share stands (ShareState). */
	shareState(): ShareState {
		this.share();
		if (this.measuring) return 'measuring';
		return this.learned ? 'settled' : 'full';
	}

	/**
	 * A refusal showed other traffic while this process used its full limit: once the lockout ends, pace evenly at the
	 * limit until AWeber refuses again (lowerShare), to find this process's fair part.
	 */
	measureShare(): void {
		this.learned = undefined;
		this.recoveredTo = undefined;
		this.measuring = { nextAt: 0, pace: this.settings.requests };
	}

	/** Whether a lockout is being waited out (a refusal now only confirms it). */
	isLockedOut(): boolean {
		return this.lockedUntil > this.clock.now();
	}

	/**
	 * Settles this process's share of the account at `to`: the measurement's result (measuredShare), or lower than the
	 * settled share after a refusal (never raising it then); returns the share now in force.
	 */
	lowerShare(to: number): number {
		const wanted = Math.max(1, Math.floor(to));
		const ceiling = this.settings.requests;
		if (this.measuring && this.shareState() === 'measuring') {
			const settled = Math.min(ceiling, wanted);
			// The others that measured alike paced to drain their work in MEASURE_DRAIN_WINDOWS windows and were refused
			// after as long as this process, so they need about MEASURE_DRAIN_WINDOWS / (that time) windows at their share
			// once the lockout this refusal starts has passed: rising before they are done would only cost the account a
			// lockout. A refusal within a fifth of a window says the others were not measuring alike (already at full
			// speed when this process started): the plain hold then, so that a share settled too low soon rises.
			const { firstStartAt } = this.measuring;
			const measuredWindows = firstStartAt === undefined ? 0 : (this.clock.now() - firstStartAt) / this.settings.windowMs;
			const othersDoneIn = measuredWindows >= MIN_MEASURED_WINDOWS ? 1 + Math.ceil(MEASURE_DRAIN_WINDOWS / measuredWindows) : SHARE_HOLD_WINDOWS;
			const holdWindows = Math.min(MAX_SHARE_HOLD_WINDOWS, Math.max(SHARE_HOLD_WINDOWS, othersDoneIn));
			this.measuring = undefined;
			this.learned = settled < ceiling ? { share: settled, at: this.clock.now(), holdWindows } : undefined;
			return settled;
		}
		const share = Math.min(this.share(), wanted);
		// Still lowered: the last raise went too far, so wait longer before the next one.
		const holdWindows = this.learned ? Math.min(MAX_SHARE_HOLD_WINDOWS, Math.max(SHARE_HOLD_WINDOWS, this.learned.holdWindows * 2)) : SHARE_HOLD_WINDOWS;
		this.learned = { share, at: this.clock.now(), holdWindows };
		this.recoveredTo = undefined;
		return share;
	}

	/** The full limit once a learned share grew back to it, reported once. */
	takeRecoveredShare(): number | undefined {
		this.share();
		const recovered = this.recoveredTo;
		this.recoveredTo = undefined;
		return recovered;
	}

	/** A rough time until a request queued now would start, to tell the user; not used for pacing. */
	estimateWaitMs(): number {
		const now = this.clock.now();
		const perRequest = (this.settings.windowMs + this.margin()) / (this.measuringPace() ?? this.share());
		const next = this.nextStartAt(now) ?? now + perRequest;
		return Math.max(0, next - now) + this.waiters.length * perRequest;
	}

	private startRequest(enqueuedAt: number): RateLimitSlot {
		this.inFlight++;
		if (this.measuring) {
			// Paced on the requests still waiting (this one aside), so that each process's part follows its work.
			this.measuring.firstStartAt ??= this.clock.now();
			this.measuring.pace = measuringPace(this.waiters.length + 1, this.settings.requests);
			this.measuring.nextAt = this.clock.now() + (this.settings.windowMs + this.margin()) / this.measuring.pace;
		}
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
		const requests = this.share();
		const counted = this.settings.windowMs + this.margin();
		this.dropExpired(now);
		if (this.inFlight >= Math.min(MAX_CONCURRENT_REQUESTS, requests)) return undefined;
		let startAt = Math.max(now, this.lockedUntil);
		if (this.measuring) startAt = Math.max(startAt, this.measuring.nextAt);
		// Over the limit, the oldest finished requests have to leave the window first.
		const mustLeave = this.inFlight + this.finished.length - requests + 1;
		if (mustLeave > 0) {
			if (mustLeave > this.finished.length) return undefined;
			startAt = Math.max(startAt, this.finished[mustLeave - 1].at + counted);
		}
		return startAt;
	}

	/**
	 * A whole window after the lockout passed without a refusal while measuring: the others left room for the pace
	 * kept. At the full limit they have gone; below it, the share rises from that pace as after a hold.
	 */
	private endQuietMeasurement(): void {
		if (!this.measuring) return;
		if (this.clock.now() < this.lockedUntil + this.settings.windowMs + this.margin()) return;
		const ceiling = this.settings.requests;
		const pace = Math.floor(this.measuring.pace);
		this.measuring = undefined;
		if (pace < ceiling) this.learned = { share: pace, at: this.clock.now(), holdWindows: 0 };
		else this.recoveredTo = ceiling;
	}

	private dropExpired(now: number): void {
		const counted = this.settings.windowMs + this.margin();
		while (this.finished.length > 0 && this.finished[0].at + counted <= now) this.finished.shift();
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
