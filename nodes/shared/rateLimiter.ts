import { sleep } from 'n8n-workflow';

export interface RateLimitSettings {
	/** Requests AWeber allows per window for one account (120). */
	requests: number;
	/** The window, and the lockout after a refusal (60 s at AWeber). */
	windowMs: number;
}

/**
 * Keeps one AWeber account under its sliding-window limit within this process.
 *
 * A request occupies a slot from the moment it is sent until one window after its response
 * arrived: the response time is an upper bound on when AWeber counted it, so network jitter
 * can never make two windows overlap at AWeber's end. Requests wait in arrival order, which
 * keeps a node's items in the order they came in.
 */
export class AccountRateLimiter {
	private readonly completedAt: number[] = [];

	private inFlight = 0;

	private lockedUntil = 0;

	private queue: Promise<void> = Promise.resolve();

	private readonly waitingForRelease: Array<() => void> = [];

	constructor(public settings: RateLimitSettings) {}

	/** Waits for a slot; call `release` when the response (or failure) arrived. */
	async acquire(): Promise<{ waitedMs: number; release: () => void }> {
		const startedAt = Date.now();
		const turn = this.queue.then(async () => await this.waitForSlot());
		this.queue = turn.catch(() => undefined);
		await turn;
		this.inFlight++;
		let released = false;
		return {
			waitedMs: Date.now() - startedAt,
			release: () => {
				if (released) return;
				released = true;
				this.inFlight--;
				this.completedAt.push(Date.now());
				this.waitingForRelease.shift()?.();
			},
		};
	}

	/** AWeber refused with "Rate Limit Error": it locks the account out for one window. */
	lockOut(): number {
		this.lockedUntil = Math.max(this.lockedUntil, Date.now() + this.settings.windowMs + this.margin());
		return this.lockedUntil - Date.now();
	}

	private margin(): number {
		// A little slack for clock granularity; 2 % of the window keeps throughput near the limit.
		return Math.max(5, this.settings.windowMs * 0.02);
	}

	private async waitForSlot(): Promise<void> {
		for (;;) {
			const now = Date.now();
			if (now < this.lockedUntil) {
				await sleep(this.lockedUntil - now);
				continue;
			}
			const windowStart = now - this.settings.windowMs - this.margin();
			while (this.completedAt.length > 0 && this.completedAt[0] <= windowStart) this.completedAt.shift();
			if (this.inFlight + this.completedAt.length < this.settings.requests) return;
			if (this.completedAt.length > 0) {
				await sleep(this.completedAt[0] - windowStart);
			} else {
				await new Promise<void>((resolve) => this.waitingForRelease.push(resolve));
			}
		}
	}
}

const limiters = new Map<string, AccountRateLimiter>();

/** One limiter per AWeber account (credential) per process, shared by every AWeber node. */
export function rateLimiterFor(key: string, settings: RateLimitSettings): AccountRateLimiter {
	let limiter = limiters.get(key);
	if (!limiter) {
		limiter = new AccountRateLimiter(settings);
		limiters.set(key, limiter);
	} else if (
		limiter.settings.requests !== settings.requests ||
		limiter.settings.windowMs !== settings.windowMs
	) {
		limiter.settings = settings;
	}
	return limiter;
}
