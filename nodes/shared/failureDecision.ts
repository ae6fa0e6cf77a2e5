/* What the request path does after a failed attempt: one pure decision, tested as a table (test/shared/failureDecision.test.ts). */
import { parseAweberTime } from './aweberTime';
import { isRateLimitRefusal, isTransientFailure, type AweberFailure } from './errors';
import { measuredShare, shareAfterRefusal, type ShareState } from './shareLearning';

/** "Rate Limit Error" lockouts waited out for one request before giving up: AWeber's budget is being used elsewhere. */
export const MAX_RATE_LIMIT_WAITS = 5;

/** Retries of a 5xx or dropped connection, 1, 2, 4 and 8 s apart at AWeber's window (15 s in all). */
export const MAX_TRANSIENT_RETRIES = 4;

/** What the earlier attempts of this request already used up or showed. */
export interface AttemptCounters {
	rateLimitWaits: number;
	transientRetries: number;
	refreshRaceRetried: boolean;
	/** An earlier attempt may have been carried out although its answer was lost (5xx, dropped connection). */
	outcomeUnknown: boolean;
}

export interface RequestTraits {
	/** An idempotent method, or a write AWeber recognises as a repeat (add subscriber); otherwise a write (POST). */
	repeatable: boolean;
	/** A duplicate refusal of a retry can be checked against the first attempt (add subscriber). */
	canRecoverDuplicate: boolean;
}

export interface FailureContext {
	/** The error is not AWeber's answer (a refused field, a cancelled run), or a follow-up request already handled it. */
	notAnAnswer: boolean;
	/** The request lost a token refresh race to another request that since succeeded (tokenRefreshRace.ts). */
	lostRefreshRace: boolean;
	/** The account's pacing in this process when the answer came (rateLimiter.ts). */
	account: {
		/** Requests of this process AWeber counted in the current window, the refused one aside. */
		sentInWindow: number;
		/** The credential's Rate Limit (Requests). */
		ceiling: number;
		/** A lockout is already being waited out: this refusal only confirms it. */
		lockedOut: boolean;
		share: ShareState;
		/** While measuring: how long this process has measured, in windows. */
		measuredWindows?: number;
		learning: boolean;
	};
	/** The first retry's delay; each further one doubles it. */
	backoffBaseMs: number;
}

export type FailureDecision =
	/** Throw the error as it is. */
	| { action: 'pass-on' }
	/** The token refresh lost a race: the request was not carried out, send it again at once. */
	| { action: 'resend-after-refresh-race' }
	/** Wait out AWeber's lockout; a refusal that shows other traffic starts a measurement or settles the share (shareLearning.ts). */
	| { action: 'wait-out-lockout'; measureShare?: true; lowerShareTo?: number }
	/** A transient failure of a request that is safe to repeat. */
	| { action: 'retry'; afterMs: number }
	/** A retried add met "already subscribed": the first attempt may have added the subscriber; check the evidence. */
	| { action: 'recover-duplicate' }
	/** `answer-lost`: a write that cannot be repeated lost its answer, so it may have been carried out. */
	| { action: 'fail'; because: 'refused' | 'rate-limit-persists' | 'answer-lost' };

function isAlreadySubscribedRefusal(failure: AweberFailure): boolean {
	return failure.status === 400 && /already subscribed/i.test(failure.message ?? '');
}

/** The request surely never reached AWeber: the connection was refused or the host not found. */
function neverSent(failure: AweberFailure): boolean {
	return failure.code === 'ECONNREFUSED' || failure.code === 'EAI_AGAIN';
}

export function decideAfterFailure(
	failure: AweberFailure,
	counters: AttemptCounters,
	request: RequestTraits,
	context: FailureContext,
): FailureDecision {
	if (context.notAnAnswer) return { action: 'pass-on' };
	// Refused at the token endpoint, so not carried out: even a write may be sent again.
	if (context.lostRefreshRace && !counters.refreshRaceRetried) return { action: 'resend-after-refresh-race' };
	if (isRateLimitRefusal(failure)) {
		if (counters.rateLimitWaits >= MAX_RATE_LIMIT_WAITS) return { action: 'fail', because: 'rate-limit-persists' };
		return { action: 'wait-out-lockout', ...learnFromRefusal(context.account) };
	}
	if (isTransientFailure(failure)) {
		if (request.repeatable && counters.transientRetries < MAX_TRANSIENT_RETRIES) {
			return { action: 'retry', afterMs: context.backoffBaseMs * 2 ** counters.transientRetries };
		}
		if (!request.repeatable && !neverSent(failure)) return { action: 'fail', because: 'answer-lost' };
		return { action: 'fail', because: 'refused' };
	}
	if (request.canRecoverDuplicate && counters.outcomeUnknown && isAlreadySubscribedRefusal(failure)) {
		return { action: 'recover-duplicate' };
	}
	return { action: 'fail', because: 'refused' };
}

/** What a "Rate Limit Error" teaches about this process's share of the account (rateLimiter.ts). */
function learnFromRefusal(account: FailureContext['account']): { measureShare?: true; lowerShareTo?: number } {
	// Only the refusal that starts a lockout is evidence; the others in the same moment only confirm it. A process
	// that alone filled the limit learns nothing: no other traffic is needed to explain the refusal.
	if (!account.learning || account.lockedOut || account.sentInWindow >= account.ceiling) return {};
	if (account.share === 'full') return { measureShare: true };
	const lowerShareTo =
		account.share === 'measuring' ? measuredShare(account.sentInWindow, account.ceiling, account.measuredWindows) : shareAfterRefusal(account.sentInWindow, account.ceiling);
	return lowerShareTo === undefined ? {} : { lowerShareTo };
}

/** Slack for the difference between this machine's clock and AWeber's when comparing their times. */
export const CLOCK_SKEW_MS = 2 * 60_000;

/** A subscriber found after a retried add's "already subscribed" is the first attempt's only if AWeber dates it after that attempt. */
export function addedByEarlierAttempt(subscribedAt: unknown, firstSentAt: number): boolean {
	const time = parseAweberTime(subscribedAt);
	return time !== undefined && time >= firstSentAt - CLOCK_SKEW_MS;
}
