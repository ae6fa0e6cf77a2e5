import type { IHttpRequestMethods } from 'n8n-workflow';

import { accountSettings } from './accountSettings';
import { asNodeError, readAweberFailure, toAweberError, windowName, AweberRequestError, type AweberFailure } from './errors';
import { decideAfterFailure, MAX_RATE_LIMIT_WAITS, MAX_TRANSIENT_RETRIES, type AttemptCounters, type RequestTraits } from './failureDecision';
import { assertUnderApiBase } from './origin';
import { rateLimiterFor } from './rateLimiter';
import { isDropped, markWritten, notSentError, stopRunOnFailure, stopSignal } from './itemFailures';
import { runItemOf } from './runState';
import type { AweberContext } from './aweberContext';
import { acquireSlot, formatDuration, notify, sleepUnlessStopped, warnIfTooLongForTimeout } from './waits';

/* Every request carrying the credential: acquire -> send -> decide (docs/architecture.md#architecture-the-request-path). */

/** What a write that cannot be repeated may have done when its answer was lost ("The purchase may have been recorded"), and where to check. */
export interface LostAnswerAdvice {
	mayHaveHappened: string;
	howToCheck: string;
}

const CHANGE_MAY_HAVE_HAPPENED: LostAnswerAdvice = {
	mayHaveHappened: 'AWeber may have carried out this change',
	howToCheck: 'Check in AWeber whether the change was made before running this item again.',
};

interface SendOptions<T> {
	method: IHttpRequestMethods | string;
	/**
	 * Absolute: checked against the credential's API origin before anything is sent. `source` names where a link handed
	 * in came from; without one, the package built the URL from the credential's API Base URL (origin.ts).
	 */
	url: string;
	source?: string;
	/** A write AWeber can safely see twice (beyond the idempotent methods). */
	safeToRepeat?: boolean;
	itemIndex?: number;
	/** One of several requests the item runs at once (pages read ahead): it makes no follow-ups, so its slot is not held. */
	concurrent?: boolean;
	/** After a retry's duplicate refusal (add subscriber): what the first attempt gave; undefined, and the refusal stands. */
	recoverDuplicate?: (attempts: { firstSentAt: number | undefined }) => Promise<T | undefined>;
	ifAnswerLost?: LostAnswerAdvice;
	/** A refusal the caller answers itself (asks again elsewhere): not the item's final failure. */
	handledRefusal?: (failure: AweberFailure) => boolean;
}

export async function sendWithAweberPolicies<T>(
	context: AweberContext,
	request: SendOptions<T>,
	send: () => Promise<T>,
): Promise<T> {
	const { key, settings } = await accountSettings(context);
	assertUnderApiBase(context.getNode(), request.url, settings.apiBaseUrl, request.source, request.itemIndex);
	const limiter = rateLimiterFor(key, settings);
	const pacing = { key, limiter, settings };
	// Backoff follows the account's window so a time-scaled sandbox scales retries too (1 s at AWeber's 60 s).
	const backoffBaseMs = settings.windowMs / 60;
	const method = request.method.toUpperCase();
	const repeatable = ['GET', 'PUT', 'DELETE', 'PATCH'].includes(method) || request.safeToRepeat === true;
	const isWrite = method !== 'GET';
	const owner = runItemOf(context);
	if (owner?.item.writing) markWritten(owner.run, owner.index);
	const signal = stopSignal(context.getExecutionCancelSignal?.(), owner?.run);
	const execution = executionOf(context);
	const counters: AttemptCounters = { rateLimitWaits: 0, transientRetries: 0, refreshRaceRetried: false, outcomeUnknown: false };
	const traits: RequestTraits = { repeatable, canRecoverDuplicate: request.recoverDuplicate !== undefined };
	let firstSentAt: number | undefined;
	try {
		for (let attempt = 0; ; attempt++) {
			const continuing = attempt > 0 || owner?.item.started === true;
			owner?.item.heldSlot?.release();
			warnIfTooLongForTimeout(context, key, limiter, settings);
			const slot = await acquireSlot(context, pacing, { priority: continuing, signal, execution }, request.itemIndex, owner);
			if (owner && isDropped(owner.run, owner.index)) {
				// An item before this one failed the run while this one's turn came.
				slot.release();
				throw notSentError(context, owner.run, request.itemIndex);
			}
			if (owner) {
				owner.item.started = true;
				if (!request.concurrent) owner.item.heldSlot = slot;
			}
			// Wall clock: compared with AWeber's subscribed_at (failureDecision.ts).
			firstSentAt ??= Date.now();
			const tracked = trackSend(key, async () => await send());
			let refused = false;
			if (isWrite && owner) owner.item.writing = true;
			try {
				const result = await tracked.result;
				if (isWrite && owner) markWritten(owner.run, owner.index);
				return result;
			} catch (error) {
				const failure = readAweberFailure(error);
				const decision = decideAfterFailure(failure, counters, traits, {
					// A follow-up request made while handling this one already applied these policies, and errors that
					// are not AWeber's answer (a refused field, a cancelled run) are not retried.
					notAnAnswer: error instanceof AweberRequestError || (failure.status === undefined && failure.code === undefined),
					lostRefreshRace: await tracked.lostRefreshRace(failure),
					account: {
						sentInWindow: limiter.sentInWindow(),
						ceiling: settings.requests,
						lockedOut: limiter.isLockedOut(),
						share: limiter.learning.state(),
						measuredWindows: limiter.learning.measuredWindows(),
						learning: limiter.learnsShare,
					},
					backoffBaseMs,
				});
				switch (decision.action) {
					case 'pass-on':
						throw asNodeError(context.getNode(), error, request.itemIndex);
					case 'resend-after-refresh-race':
						counters.refreshRaceRetried = true;
						continue;
					case 'wait-out-lockout': {
						counters.rateLimitWaits++;
						refused = true;
						const lockout = limiter.lockOut();
						if (decision.measureShare) {
							limiter.learning.measure();
							notify(
								context,
								'warn',
								`AWeber: another process or app is using this AWeber account: after the lockout this process paces its requests evenly to measure its share of the account's ${settings.requests} requests per ${windowName(settings.windowMs)}`,
							);
						}
						if (decision.lowerShareTo !== undefined) {
							const share = limiter.learning.lower(decision.lowerShareTo);
							notify(
								context,
								'warn',
								`AWeber: another process or app is using this AWeber account: this process now sends at most ${share} requests per ${windowName(settings.windowMs)} (the credential allows ${settings.requests}), rising again while AWeber accepts them`,
							);
						}
						if (lockout.started) {
							notify(
								context,
								'warn',
								`AWeber answered "Rate Limit Error" (another app or workflow may be using this account's budget); waiting ${formatDuration(lockout.waitMs)} for the lockout to end, then retrying`,
							);
						}
						continue;
					}
					case 'retry':
						counters.transientRetries++;
						counters.outcomeUnknown = true;
						context.logger.warn(
							`AWeber request failed (${failure.status ?? failure.code}); retry ${counters.transientRetries} of ${MAX_TRANSIENT_RETRIES} in ${formatDuration(decision.afterMs)}`,
							{ node: context.getNode().name },
						);
						slot.release();
						await sleepUnlessStopped(context, decision.afterMs, signal, request.itemIndex, owner);
						continue;
					case 'recover-duplicate': {
						slot.release();
						// The look-up is no follow-up of a write AWeber carried out: only what it finds makes the item written.
						if (owner) owner.item.writing = false;
						const recovered = await request.recoverDuplicate!({ firstSentAt });
						if (recovered !== undefined) {
							if (owner) markWritten(owner.run, owner.index);
							return recovered;
						}
						break;
					}
					// 'fail': mapped and thrown below.
				}
				const mapped = toAweberError(context.getNode(), error, request.itemIndex, settings, request.url);
				if (decision.action === 'fail' && decision.because === 'rate-limit-persists') {
					mapped.description = `AWeber still answered "Rate Limit Error" after ${MAX_RATE_LIMIT_WAITS} lockout waits. Another app or workflow is probably using this account's budget of ${settings.requests} requests per ${formatDuration(settings.windowMs)}.\n${mapped.description ?? ''}`;
				}
				if (decision.action === 'fail' && decision.because === 'answer-lost') {
					// Not sent again, so that nothing is done twice: the error says it may have happened and where to look.
					const advice = request.ifAnswerLost ?? CHANGE_MAY_HAVE_HAPPENED;
					const answer = failure.status !== undefined ? `HTTP ${failure.status}` : (failure.code ?? 'no answer');
					mapped.message = `${advice.mayHaveHappened}, but AWeber's answer was lost (${answer}: ${failure.message ?? 'no message'})`;
					const known = mapped.description ? `\n${mapped.description}` : '';
					mapped.description = `${advice.howToCheck} The node did not send it again, so that it is not done twice.${known}`;
				}
				throw mapped;
			} finally {
				if (isWrite && owner) owner.item.writing = false;
				// A held slot stays the item's until its next request releases it again, which does nothing (rateLimiter.ts).
				slot.release({ refused });
			}
		}
	} catch (error) {
		// The item failed for good: unless the node continues on fail, nothing more is sent for the items after it.
		const handled = request.handledRefusal?.(readAweberFailure(error)) === true;
		if (owner && !handled) stopRunOnFailure(context, owner.run, owner.index, error);
		throw asNodeError(context.getNode(), error, request.itemIndex, request.url);
	}
}

/** The execution the request belongs to, which takes turns with the others on the credential (undefined: none, as for a poll). */
function executionOf(context: AweberContext): string | undefined {
	const id = context.getExecutionId?.() as unknown;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/*
 * A request whose token refresh lost a race to another request of the same credential: n8n 1.x refreshes once per
 * request, AWeber's refresh makes the old refresh token stop working (docs/aweber-behaviour.md#oauth-20), so the
 * losers are refused ("invalid_grant") although the credential now holds a working token. Such a request is sent once
 * more, after the requests it raced with have settled and one of them succeeded.
 */

/** Per credential: the requests in flight, and a count of successes (did one succeed since a request started?). */
const sendsByCredential = new Map<string, { inFlight: Set<Promise<unknown>>; successes: number }>();

/** Sends one request of a credential, noting it among the credential's requests in flight. */
export function trackSend<T>(credentialKey: string, send: () => Promise<T>) {
	const sends = sendsByCredential.get(credentialKey) ?? { inFlight: new Set(), successes: 0 };
	sendsByCredential.set(credentialKey, sends);
	const successesBefore = sends.successes;
	const result = send();
	const settled = result.then(
		() => {
			sends.successes++;
		},
		() => undefined,
	);
	sends.inFlight.add(settled);
	void settled.then(() => sends.inFlight.delete(settled));
	return {
		result,
		/** After `result` failed: whether it may be a lost refresh race that a new attempt would not meet. */
		async lostRefreshRace(failure: { code?: string }): Promise<boolean> {
			// EAUTH: n8n's OAuth2 client was refused at the token endpoint.
			if (failure.code !== 'EAUTH') return false;
			sends.inFlight.delete(settled);
			await Promise.all([...sends.inFlight]);
			return sends.successes > successesBefore;
		},
	};
}
