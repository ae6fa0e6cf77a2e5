// AWeber's rate limit: 120 requests per sliding minute per customer account; the request over the limit
// gets a 403 "Rate Limit Error" and the account is locked out for 60 seconds (docs/aweber-behaviour.md#rate-limit).
// Durations are in sandbox time, so a time scale shrinks them for tests.
import type { SandboxClock } from './clock';
import type { RateLimitOptions } from './types';

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { requestsPerWindow: 120, windowSeconds: 60, lockoutSeconds: 60 };

export type RateLimitDecision = 'allowed' | 'limited';

export class RateLimiter {
	private readonly requestTimes = new Map<number, number[]>();
	private readonly lockedUntil = new Map<number, number>();

	constructor(
		private readonly clock: SandboxClock,
		private readonly options: RateLimitOptions = DEFAULT_RATE_LIMIT,
	) {}

	/** Counts one request for the account. Requests during a lockout are refused and not counted. */
	hit(accountId: number): RateLimitDecision {
		const now = this.clock.now();
		const lockedUntil = this.lockedUntil.get(accountId);
		if (lockedUntil !== undefined) {
			if (now < lockedUntil) return 'limited';
			this.lockedUntil.delete(accountId);
		}
		const windowStart = now - this.options.windowSeconds * 1000;
		const times = (this.requestTimes.get(accountId) ?? []).filter((time) => time > windowStart);
		if (times.length >= this.options.requestsPerWindow) {
			this.lockOut(accountId);
			return 'limited';
		}
		times.push(now);
		this.requestTimes.set(accountId, times);
		return 'allowed';
	}

	lockOut(accountId: number): void {
		this.lockedUntil.set(accountId, this.clock.now() + this.options.lockoutSeconds * 1000);
		// After the lockout the account starts with a fresh window.
		this.requestTimes.delete(accountId);
	}

	reset(): void {
		this.requestTimes.clear();
		this.lockedUntil.clear();
	}
}
