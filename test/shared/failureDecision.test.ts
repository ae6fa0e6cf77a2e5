// What the request path does after a failed attempt, as a table: failure, counters, request -> decision.
import type { AweberFailure } from '../../nodes/shared/errors';
import {
	addedByEarlierAttempt,
	CLOCK_SKEW_MS,
	decideAfterFailure,
	MAX_RATE_LIMIT_WAITS,
	MAX_TRANSIENT_RETRIES,
	type AttemptCounters,
	type FailureContext,
	type FailureDecision,
	type RequestTraits,
} from '../../nodes/shared/failureDecision';

const rateLimit: AweberFailure = { status: 403, type: 'ForbiddenError', message: 'Rate Limit Error' };
const unavailable: AweberFailure = { status: 503, message: 'Service temporarily unavailable' };
const internal: AweberFailure = { status: 500, message: 'An internal error occurred.' };
const reset: AweberFailure = { code: 'ECONNRESET', message: 'socket hang up' };
const refusedConnection: AweberFailure = { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' };
const alreadySubscribed: AweberFailure = { status: 400, message: 'ada@example.com is already subscribed to list x' };
const notFound: AweberFailure = { status: 404, message: 'Not found' };
const tokenRefused: AweberFailure = { code: 'EAUTH', message: 'invalid_grant' };

const fresh: AttemptCounters = { rateLimitWaits: 0, transientRetries: 0, refreshRaceRetried: false, outcomeUnknown: false };
const read: RequestTraits = { repeatable: true, canRecoverDuplicate: false };
const add: RequestTraits = { repeatable: true, canRecoverDuplicate: true };
const purchase: RequestTraits = { repeatable: false, canRecoverDuplicate: false };
const facts: FailureContext = {
	notAnAnswer: false,
	lostRefreshRace: false,
	account: { sentInWindow: 60, ceiling: 120, lockedOut: false, share: 'full', learning: true },
	backoffBaseMs: 1_000,
};

type Row = [string, AweberFailure, Partial<AttemptCounters>, RequestTraits, Partial<FailureContext>, FailureDecision];

const table: Row[] = [
	['an error that is not AWeber\'s answer', notFound, {}, read, { notAnAnswer: true }, { action: 'pass-on' }],
	['a lost token refresh race', tokenRefused, {}, purchase, { lostRefreshRace: true }, { action: 'resend-after-refresh-race' }],
	['a second lost refresh race', tokenRefused, { refreshRaceRetried: true }, read, { lostRefreshRace: true }, { action: 'fail', because: 'refused' }],
	['a lockout while this process sent half the limit at its full limit: measure the share after it', rateLimit, {}, read, {}, { action: 'wait-out-lockout', measureShare: true }],
	[
		'the refusal that ends the measurement: settle at what this process sent since the lockout',
		rateLimit,
		{},
		read,
		{ account: { ...facts.account, share: 'measuring', measuredWindows: 0.5 } },
		{ action: 'wait-out-lockout', lowerShareTo: 59 },
	],
	[
		'a refusal while the share is settled: lower it to what this process sent, less one',
		rateLimit,
		{},
		read,
		{ account: { ...facts.account, share: 'settled' } },
		{ action: 'wait-out-lockout', lowerShareTo: 59 },
	],
	['a lockout this process filled alone: nothing learned', rateLimit, {}, read, { account: { ...facts.account, sentInWindow: 120 } }, { action: 'wait-out-lockout' }],
	['a refusal during a lockout already waited out: only confirms it', rateLimit, {}, read, { account: { ...facts.account, lockedOut: true } }, { action: 'wait-out-lockout' }],
	['a lockout with the learning off', rateLimit, {}, read, { account: { ...facts.account, learning: false } }, { action: 'wait-out-lockout' }],
	['lockouts that keep coming', rateLimit, { rateLimitWaits: MAX_RATE_LIMIT_WAITS }, read, {}, { action: 'fail', because: 'rate-limit-persists' }],
	['a first 503 of a read', unavailable, {}, read, {}, { action: 'retry', afterMs: 1_000 }],
	['a third dropped connection of a read: backoff doubles', reset, { transientRetries: 2 }, read, {}, { action: 'retry', afterMs: 4_000 }],
	['a 503 after every retry', unavailable, { transientRetries: MAX_TRANSIENT_RETRIES }, read, {}, { action: 'fail', because: 'refused' }],
	['a 500 of a purchase: may have been recorded, not sent again', internal, {}, purchase, {}, { action: 'fail', because: 'answer-lost' }],
	['a reset connection of a purchase', reset, {}, purchase, {}, { action: 'fail', because: 'answer-lost' }],
	['a refused connection of a purchase: never sent', refusedConnection, {}, purchase, {}, { action: 'fail', because: 'refused' }],
	['a 503 of an add: sent again', unavailable, {}, add, {}, { action: 'retry', afterMs: 1_000 }],
	['"already subscribed" after an unknown outcome: check the evidence', alreadySubscribed, { outcomeUnknown: true, transientRetries: 1 }, add, {}, { action: 'recover-duplicate' }],
	['"already subscribed" at the first attempt', alreadySubscribed, {}, add, {}, { action: 'fail', because: 'refused' }],
	['a plain refusal', notFound, {}, read, {}, { action: 'fail', because: 'refused' }],
];

describe('decideAfterFailure', () => {
	it.each(table)('%s', (_name, failure, counters, request, context, expected) => {
		expect(decideAfterFailure(failure, { ...fresh, ...counters }, request, { ...facts, ...context })).toEqual(expected);
	});
});

describe('addedByEarlierAttempt: whether a retried add\'s subscriber is the first attempt\'s', () => {
	const sentAt = Date.parse('2026-11-25T10:00:00Z');
	it.each([
		['subscribed after the first attempt was sent', '2026-11-25T10:00:03+00:00', true],
		['in AWeber\'s Eastern time with microseconds', '2026-11-25 05:00:01.123456-05:00', true],
		['a little before, within the clock skew', new Date(sentAt - CLOCK_SKEW_MS + 1_000).toISOString(), true],
		['long before: the address was already on the list', '2025-01-06T09:00:00+00:00', false],
		['no date', undefined, false],
		['not a date', 'yesterday', false],
	])('%s', (_name, subscribedAt, expected) => {
		expect(addedByEarlierAttempt(subscribedAt, sentAt)).toBe(expected);
	});
});
