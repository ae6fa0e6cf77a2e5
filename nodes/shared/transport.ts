import type {
	IDataObject,
	IExecuteSingleFunctions,
	RequestHelperFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { AWEBER_CREDENTIAL_TYPE, USER_AGENT } from './constants';
import { assertUnderApiBase, isAbsoluteLink } from './origin';
import { NO_AUTOMATIC_REDIRECTS, sendFollowingApiRedirects } from './redirects';
import { readAweberFailure, toAweberError, windowName, type AweberFailure } from './errors';
import {
	decideAfterFailure,
	mayBeRefreshRace,
	MAX_RATE_LIMIT_WAITS,
	MAX_TRANSIENT_RETRIES,
	type AttemptCounters,
	type RequestTraits,
} from './failureDecision';
import { trackSend } from './tokenRefreshRace';
import {
	RateLimitWaitAborted,
	whenAborted,
	rateLimiterFor,
	type AccountRateLimiter,
	type RateLimitSettings,
	type RateLimitSlot,
} from './rateLimiter';

/** What the shared request path needs from any n8n context (execute, load options, hooks, polls, webhooks). */
export type AweberContext = Pick<IExecuteSingleFunctions, 'getNode' | 'getCredentials' | 'logger'> &
	Partial<Pick<IExecuteSingleFunctions, 'getExecutionCancelSignal' | 'getWorkflowSettings' | 'getMode' | 'continueOnFail'>> & {
		helpers: Pick<RequestHelperFunctions, 'httpRequestWithAuthentication'>;
	};

export { MAX_RATE_LIMIT_WAITS, MAX_TRANSIENT_RETRIES };

/**
 * What one node run's items share while they send, keyed by the run's execute data (one object for every
 * item of a node run, routing.ts A5; weakly held, so it goes with the run):
 * - per item (by index): the rate-limit slot its request holds while its response is handled, and whether
 *   it already sent something (its next requests continue started work and go first). A follow-up request
 *   the item makes while handling a response (following Location, reading a self_link) releases the held
 *   slot first: the HTTP exchange is over, and holding it while waiting for a new one could deadlock a
 *   full window of such requests;
 * - the items that wrote to AWeber, and the item that failed for good with Continue On Fail off (the first in
 *   n8n's order, the one whose error n8n shows). "Stop the workflow" means what it means for n8n's own nodes,
 *   which handle items one after the other: the items before the failing one are carried out, nothing is sent
 *   for the items after it. Requests already on their way when the failure became known cannot be called back:
 *   the failing item's error counts them among the items written (docs/architecture.md#when-an-item-fails).
 */
interface RunState {
	items: Map<number, ItemState>;
	written: Set<number>;
	/** Items written once the run had failed: on their way already, or before the failing item in n8n's order. */
	writtenAfterFailure: Set<number>;
	stop: AbortController;
	/** The execution's cancel signal combined with `stop`. */
	signal?: AbortSignal;
	failedItem?: number;
	failureMessage?: string;
	/** The error of every item that failed for good, each kept saying what was written (n8n shows the first). */
	failures: Map<number, NodeApiError | NodeOperationError>;
}

interface ItemState {
	heldSlot?: RateLimitSlot;
	started: boolean;
	/**
	 * A write of the item is being handled: a request the item makes meanwhile is its postReceive's follow-up,
	 * made only once AWeber carried the write out (the follow-up may then be dropped, the write stands).
	 */
	writing?: boolean;
}

const runStates = new WeakMap<object, RunState>();

function itemOf(context: AweberContext): { run: RunState; index: number; item: ItemState } | undefined {
	const { getExecuteData, getItemIndex } = context as Partial<Pick<IExecuteSingleFunctions, 'getExecuteData' | 'getItemIndex'>>;
	if (typeof getExecuteData !== 'function' || typeof getItemIndex !== 'function') return undefined;
	const runKey = getExecuteData.call(context) as object | undefined;
	const index = getItemIndex.call(context);
	if (typeof runKey !== 'object' || runKey === null || typeof index !== 'number') return undefined;
	let run = runStates.get(runKey);
	if (!run) {
		run = { items: new Map(), written: new Set(), writtenAfterFailure: new Set(), stop: new AbortController(), failures: new Map() };
		runStates.set(runKey, run);
	}
	let item = run.items.get(index);
	if (!item) {
		item = { started: false };
		run.items.set(index, item);
	}
	return { run, index, item };
}

function continuesOnFail(context: AweberContext): boolean {
	const continueOnFail = (context as { continueOnFail?: () => boolean }).continueOnFail;
	try {
		return typeof continueOnFail === 'function' && continueOnFail.call(context) === true;
	} catch {
		return false;
	}
}

/** An item's request is not sent: an item before it in n8n's order failed the run. */
function isDropped(run: RunState | undefined, index: number | undefined): boolean {
	return run?.failedItem !== undefined && index !== undefined && index > run.failedItem;
}

/** An item's write was carried out by AWeber; the failures' errors are kept up to date with it. */
function markWritten(run: RunState, index: number): void {
	run.written.add(index);
	if (run.failures.size === 0) return;
	run.writtenAfterFailure.add(index);
	describeWrittenItems(run);
}

/**
 * An item failed for good and the node does not continue on fail: n8n will fail the run with the error of the
 * first failing item in its order, and drop every item's output. From then on nothing is sent for the items
 * after that one; its error says which items were written to AWeber.
 */
function stopRun(run: RunState, index: number, error: NodeApiError | NodeOperationError): void {
	if (run.failures.has(index)) return;
	run.failures.set(index, error);
	Object.assign(error, { aweberDescription: error.description ?? '' });
	if (run.failedItem === undefined || index < run.failedItem) {
		run.failedItem = index;
		run.failureMessage = error.message;
	}
	run.stop.abort();
	describeWrittenItems(run);
}

/** Every failure's description, with the account of what the run wrote (none for a run of a single item). */
function describeWrittenItems(run: RunState): void {
	if (run.items.size <= 1) return;
	for (const [index, error] of run.failures) {
		const own = (error as { aweberDescription?: string }).aweberDescription;
		const written = [...run.written].filter((item) => item !== index).sort((a, b) => a - b);
		// Items before the failing one are carried out as n8n's own nodes would; those after it only when on their way.
		const after = written.filter((item) => item > index && run.writtenAfterFailure.has(item));
		const account =
			written.length === 0
				? 'No item of this run was written to AWeber.'
				: `${written.length} item${written.length === 1 ? ' was' : 's were'} written to AWeber in this run: ${itemList(written)}` +
					(after.length > 0
						? ` (${itemList(after)} after this failure: ${after.length === 1 ? 'it was' : 'they were'} already on ${after.length === 1 ? 'its' : 'their'} way).`
						: '.');
		error.description =
			`${own ? `${own}\n` : ''}${account} Nothing was sent for the items after item ${run.failedItem ?? index}; item numbers are n8n's, from 0. ` +
			'Turn on the node\'s "On Error: Continue" setting to get every item\'s own result instead.';
	}
}

/** "item 3", "items 0, 1 and 4", "items 0-27 and 29": n8n's numbering, runs of items as ranges. */
function itemList(indexes: number[]): string {
	const ranges: string[] = [];
	for (let start = 0; start < indexes.length; ) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		ranges.push(end - start >= 2 ? `${indexes[start]}-${indexes[end]}` : indexes.slice(start, end + 1).join(', '));
		start = end + 1;
	}
	const parts = ranges.join(', ').split(', ');
	const joined = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
	return `${indexes.length === 1 ? 'item' : 'items'} ${joined}`;
}

/** The error of a request that was dropped because an earlier item failed the run. */
function notSentError(context: AweberContext, run: RunState, itemIndex: number | undefined): NodeOperationError {
	// The run has more items than the failure knew of when it happened.
	describeWrittenItems(run);
	return new NodeOperationError(
		context.getNode(),
		`Not sent to AWeber: item ${run.failedItem ?? 0} failed first (${run.failureMessage ?? 'an error'})`,
		{
			description: 'Once an item fails and "On Error" is set to stop the workflow, the node sends nothing for the items after it (item numbers are n8n\'s, from 0).',
			itemIndex,
		},
	);
}

/**
 * A preSend of an AWeber operation (the item's input read and checked before any request): a refusal there
 * stops the run as a refusal by AWeber does, so nothing is sent for the items after this one, and its error
 * says which items were written. Under On Error "Continue (using error output)" the refused item instead reaches
 * the routed entry (routing.ts), which outputs the error with the input item's fields and sends nothing (A10);
 * the item's later preSends are skipped. Every operation's preSend is declared through it.
 */
export function refusingBadInput<T extends IHttpRequestOptions>(
	preSend: (this: IExecuteSingleFunctions, requestOptions: T) => Promise<T>,
): (this: IExecuteSingleFunctions, requestOptions: T) => Promise<T> {
	const checked = async function (this: IExecuteSingleFunctions, requestOptions: T): Promise<T> {
		const deferred = sendsErrorsToErrorOutput(this) ? deferredFailuresOf(this) : undefined;
		if (deferred?.has(this.getItemIndex())) return requestOptions;
		try {
			return await preSend.call(this, requestOptions);
		} catch (error) {
			const refusal = error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(this.getNode(), error as Error, { itemIndex: this.getItemIndex() });
			if (deferred) {
				deferred.set(this.getItemIndex(), refusal);
				return requestOptions;
			}
			const owner = itemOf(this);
			if (owner && !continuesOnFail(this) && isFinalError(refusal)) stopRun(owner.run, owner.index, refusal);
			throw refusal;
		}
	};
	// The contract suite checks that every preSend of every operation is declared through here.
	return Object.defineProperty(checked, REFUSES_BAD_INPUT, { value: true });
}

/** Marks a preSend declared through `refusingBadInput`. */
export const REFUSES_BAD_INPUT = 'aweberRefusesBadInput';

/**
 * On Error "Continue (using error output)": n8n's WorkflowExecute gives an error-output item the fields of the
 * input item it came from only when the node outputs the error as n8n's own nodes do, `{ error }` as the JSON
 * with the item's `pairedItem` (an item carrying n8n's error object is reduced to `{ error: message }`, which is
 * what RoutingNode makes of a thrown error). So the routed entry outputs such an item itself in that mode.
 */
export function sendsErrorsToErrorOutput(context: IExecuteSingleFunctions): boolean {
	return context.getNode().onError === 'continueErrorOutput' && context.continueOnFail();
}

/**
 * Input refused by a preSend (an email that is not one, an empty required field), per node run and item, kept
 * until the item's routed entry outputs it: only under On Error "Continue (using error output)" (A10).
 */
const deferredFailures = new WeakMap<object, Map<number, unknown>>();

function deferredFailuresOf(context: IExecuteSingleFunctions): Map<number, unknown> | undefined {
	const run = context.getExecuteData() as object | undefined;
	if (!run) return undefined;
	let failures = deferredFailures.get(run);
	if (!failures) {
		failures = new Map();
		deferredFailures.set(run, failures);
	}
	return failures;
}

export function takeDeferredFailure(context: IExecuteSingleFunctions): unknown {
	const failures = deferredFailuresOf(context);
	const index = context.getItemIndex();
	const failure = failures?.get(index);
	failures?.delete(index);
	return failure;
}

/**
 * One signal for "stop waiting": the execution was cancelled, or an earlier item failed the run. Made once per
 * run, so a bulk run adds one listener to the execution's signal, not one per request.
 */
function stopSignal(execution: AbortSignal | undefined, run: RunState | undefined): AbortSignal | undefined {
	if (!run) return execution;
	if (!execution) return run.stop.signal;
	run.signal ??= AbortSignal.any([execution, run.stop.signal]);
	return run.signal;
}

interface AccountSettings extends RateLimitSettings {
	apiBaseUrl: string;
}

const settingsCache = new Map<string, { settings: Promise<AccountSettings>; readAt: number }>();

async function readAccountSettings(context: AweberContext): Promise<AccountSettings> {
	const credentials = await context.getCredentials(AWEBER_CREDENTIAL_TYPE);
	const requests = Number(credentials.rateLimitRequests) > 0 ? Number(credentials.rateLimitRequests) : 120;
	const windowSeconds = Number(credentials.rateLimitWindowSeconds) > 0 ? Number(credentials.rateLimitWindowSeconds) : 60;
	return {
		requests,
		windowMs: windowSeconds * 1000,
		apiBaseUrl: String(credentials.apiBaseUrl ?? 'https://api.aweber.com').replace(/\/+$/, ''),
	};
}

async function accountSettings(context: AweberContext): Promise<{ key: string; settings: AccountSettings }> {
	const credentialRef = context.getNode().credentials?.[AWEBER_CREDENTIAL_TYPE];
	const key = credentialRef?.id ?? credentialRef?.name ?? 'aweber';
	const cached = settingsCache.get(key);
	// Credential reads can hit n8n's database: read once for all the items of a node that start together, but
	// no longer than a second, so an edited credential (a new API base URL, another limit) applies at once.
	if (cached && performance.now() - cached.readAt < 1_000) return { key, settings: await cached.settings };
	const settings = readAccountSettings(context);
	settingsCache.set(key, { settings, readAt: performance.now() });
	settings.catch(() => settingsCache.delete(key));
	return { key, settings: await settings };
}

/** The credential's API base URL (`https://api.aweber.com`), as the origin check reads it. */
export async function apiBaseUrlOf(context: AweberContext): Promise<string> {
	return (await accountSettings(context)).settings.apiBaseUrl;
}

function isIdempotent(method: string | undefined): boolean {
	return ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'].includes((method ?? 'GET').toUpperCase());
}

/** What a write that cannot be repeated may have done when its answer was lost, and how the user can check. */
export interface LostAnswerAdvice {
	/** "The purchase may have been recorded". */
	mayHaveHappened: string;
	/** Where to look before running the item again. */
	howToCheck: string;
}

const CHANGE_MAY_HAVE_HAPPENED: LostAnswerAdvice = {
	mayHaveHappened: 'AWeber may have carried out this change',
	howToCheck: 'Check in AWeber whether the change was made before running this item again.',
};

/**
 * A write that cannot be repeated lost its answer (5xx, connection dropped after sending): it was not sent again,
 * so nothing is done twice, and the error says it may have happened and where to look.
 */
function explainLostAnswer(error: NodeApiError, failure: AweberFailure, advice: LostAnswerAdvice): void {
	const answer = failure.status !== undefined ? `HTTP ${failure.status}` : (failure.code ?? 'no answer');
	error.message = `${advice.mayHaveHappened}, but AWeber's answer was lost (${answer}: ${failure.message ?? 'no message'})`;
	error.description = `${advice.howToCheck} The node did not send it again, so that it is not done twice.\n${error.description ?? ''}`;
}

export interface SendOptions<T> {
	method?: IHttpRequestMethods | string;
	/** The request's absolute URL: checked against the credential's API origin before anything is sent. */
	url?: string;
	/** Where an absolute URL came from ("the Location header of AWeber's answer"), for the origin error. */
	source?: string;
	/** A write AWeber can safely see twice (beyond the idempotent methods). */
	safeToRepeat?: boolean;
	itemIndex?: number;
	/**
	 * One of several requests the item runs at the same time (pages read ahead): its handling makes no
	 * follow-up requests, so its slot is not the item's held slot.
	 */
	concurrent?: boolean;
	/**
	 * For a request AWeber refuses as a duplicate once it was carried out (add subscriber): the result the
	 * first attempt gave, asked for when a retry after an unknown outcome met that refusal; undefined when
	 * there is none, and the refusal stands.
	 */
	recoverDuplicate?: (attempts: { firstSentAt: number | undefined }) => Promise<T | undefined>;
	/** For a write that cannot be repeated: what to tell the user when its answer was lost (defaults to a general note). */
	ifAnswerLost?: LostAnswerAdvice;
	/**
	 * A refusal the caller answers itself (asks again elsewhere): it does not count as the item's final failure,
	 * so the run's other requests go on.
	 */
	handledRefusal?: (failure: AweberFailure) => boolean;
}

/**
 * Sends one AWeber request under the account's pacing, waits out "Rate Limit Error" lockouts,
 * retries transient failures with bounded exponential backoff when the request is safe to repeat,
 * and turns AWeber's refusals into clear n8n errors. The one path every request carrying the
 * credential takes, routed or hand-written.
 */
export async function sendWithAweberPolicies<T>(
	context: AweberContext,
	request: SendOptions<T>,
	send: (attempt: number) => Promise<T>,
): Promise<T> {
	const { key, settings } = await accountSettings(context);
	if (request.url !== undefined) assertUnderApiBase(context.getNode(), request.url, settings.apiBaseUrl, request.source, request.itemIndex);
	const limiter = rateLimiterFor(key, settings);
	// Backoff follows the account's window so a time-scaled sandbox scales retries too (1 s at AWeber's 60 s).
	const backoffBaseMs = settings.windowMs / 60;
	const repeatable = isIdempotent(request.method) || request.safeToRepeat === true;
	const isWrite = !['GET', 'HEAD'].includes(String(request.method ?? 'GET').toUpperCase());
	const owner = itemOf(context);
	if (owner?.item.writing) markWritten(owner.run, owner.index);
	const signal = stopSignal(context.getExecutionCancelSignal?.(), owner?.run);
	const counters: AttemptCounters = { rateLimitWaits: 0, transientRetries: 0, refreshRaceRetried: false, outcomeUnknown: false };
	const traits: RequestTraits = { repeatable, isWrite, canRecoverDuplicate: request.recoverDuplicate !== undefined };
	let firstSentAt: number | undefined;
	try {
		for (let attempt = 0; ; attempt++) {
			const continuing = attempt > 0 || owner?.item.started === true;
			owner?.item.heldSlot?.release();
			warnIfTooLongForTimeout(context, limiter, settings);
			const slot = await acquireSlot(context, limiter, settings, { priority: continuing, signal }, request.itemIndex, owner);
			if (owner && isDropped(owner.run, owner.index)) {
				// An item before this one failed the run while this one's turn came.
				slot.release();
				throw Object.assign(notSentError(context, owner.run, request.itemIndex), { aweberNotSent: true });
			}
			if (owner) {
				owner.item.started = true;
				if (!request.concurrent) owner.item.heldSlot = slot;
			}
			// Wall clock: compared with AWeber's subscribed_at (failureDecision.ts).
			firstSentAt ??= Date.now();
			const tracked = trackSend(key, async () => await send(attempt));
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
					notAnAnswer: (error as { aweberMapped?: boolean }).aweberMapped === true || (failure.status === undefined && failure.code === undefined),
					lostRefreshRace: mayBeRefreshRace(failure, counters) && (await tracked.lostRefreshRace(failure)),
					account: {
						sentInWindow: limiter.sentInWindow(),
						ceiling: settings.requests,
						lockedOut: limiter.isLockedOut(),
						share: limiter.shareState(),
						measuredWindows: limiter.measuredWindows(),
						learning: limiter.learnsShare,
					},
					backoffBaseMs,
				});
				switch (decision.action) {
					case 'pass-on':
						throw asNodeError(context, error, request.itemIndex);
					case 'resend-after-refresh-race':
						counters.refreshRaceRetried = true;
						continue;
					case 'wait-out-lockout': {
						counters.rateLimitWaits++;
						refused = true;
						const lockout = limiter.lockOut();
						if (decision.measureShare) {
							limiter.measureShare();
							notify(
								context,
								'warn',
								`AWeber: another process or app is using this AWeber account: after the lockout this process paces its requests evenly to measure its share of the account's ${settings.requests} requests per ${windowName(settings.windowMs)}`,
							);
						}
						if (decision.lowerShareTo !== undefined) {
							const share = limiter.lowerShare(decision.lowerShareTo);
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
						const recovered = await request.recoverDuplicate!({ firstSentAt });
						if (recovered !== undefined) {
							if (owner) markWritten(owner.run, owner.index);
							return recovered;
						}
						break;
					}
					case 'fail':
						break;
				}
				const mapped = toAweberError(context.getNode(), error, request.itemIndex, settings, request.url);
				if (decision.action === 'fail' && decision.because === 'rate-limit-persists') {
					mapped.description = `AWeber still answered "Rate Limit Error" after ${MAX_RATE_LIMIT_WAITS} lockout waits. Another app or workflow is probably using this account's budget of ${settings.requests} requests per ${formatDuration(settings.windowMs)}.\n${mapped.description ?? ''}`;
				}
				if (decision.action === 'fail' && decision.because === 'answer-lost') {
					explainLostAnswer(mapped, failure, request.ifAnswerLost ?? CHANGE_MAY_HAVE_HAPPENED);
				}
				Object.assign(mapped, { aweberAttempts: attempt + 1 });
				throw mapped;
			} finally {
				if (isWrite && owner) owner.item.writing = false;
				slot.release({ refused });
				if (owner && owner.item.heldSlot === slot) owner.item.heldSlot = undefined;
			}
		}
	} catch (error) {
		// The item failed for good: unless the node continues on fail, nothing more is sent for the items after it.
		const handled = request.handledRefusal?.(readAweberFailure(error)) === true;
		if (owner && !continuesOnFail(context) && isFinalError(error) && !handled) {
			stopRun(owner.run, owner.index, error);
		}
		throw asNodeError(context, error, request.itemIndex, request.url);
	}
}

function isFinalError(error: unknown): error is NodeApiError | NodeOperationError {
	return (error instanceof NodeApiError || error instanceof NodeOperationError) && !(error as { aweberNotSent?: boolean }).aweberNotSent;
}

/** n8n's own errors as they are; anything else as AWeber's error. */
function asNodeError(context: AweberContext, error: unknown, itemIndex: number | undefined, url?: string): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return toAweberError(context.getNode(), error, itemIndex, undefined, url);
}

async function acquireSlot(
	context: AweberContext,
	limiter: AccountRateLimiter,
	settings: AccountSettings,
	options: { priority: boolean; signal?: AbortSignal },
	itemIndex: number | undefined,
	owner: { run: RunState; index: number } | undefined,
) {
	let slot;
	for (;;) {
		try {
			slot = await limiter.acquire(options);
			break;
		} catch (error) {
			// The limiter only stops a wait when the execution was cancelled or the run failed.
			const cancelled = context.getExecutionCancelSignal?.()?.aborted === true;
			if (owner && !cancelled && owner.run.failedItem !== undefined) {
				if (isDropped(owner.run, owner.index)) throw Object.assign(notSentError(context, owner.run, itemIndex), { aweberNotSent: true });
				// An item after this one failed: this one comes first in n8n's order and is carried out.
				options = { ...options, signal: context.getExecutionCancelSignal?.() };
				continue;
			}
			throw cancelledWhileWaiting(context, limiter, settings, itemIndex, error instanceof RateLimitWaitAborted ? undefined : error);
		}
	}
	const recovered = limiter.takeRecoveredShare();
	if (recovered !== undefined) {
		notify(context, 'info', `AWeber: no "Rate Limit Error" for a while: this process again sends up to the credential's ${recovered} requests per ${windowName(settings.windowMs)}`);
	}
	if (slot.waitedMs > settings.windowMs / 4 && shouldNotify(limiter, 'wait', settings.windowMs)) {
		const still = limiter.queued;
		const share = limiter.share();
		notify(
			context,
			'info',
			`AWeber: waited ${formatDuration(slot.waitedMs)} to stay under the account's rate limit of ${settings.requests} requests per ${formatDuration(settings.windowMs)}` +
				(share < settings.requests ? ` (this process's share: ${share}, as another process or app uses the account)` : '') +
				(still > 0 ? `; ${still} more requests are waiting (about ${formatDuration(limiter.estimateWaitMs())} to go)` : ''),
		);
	}
	return slot;
}

function cancelledWhileWaiting(
	context: AweberContext,
	limiter: AccountRateLimiter,
	settings: AccountSettings,
	itemIndex: number | undefined,
	cause?: unknown,
): NodeOperationError {
	if (cause !== undefined) return new NodeOperationError(context.getNode(), cause as Error, { itemIndex });
	return new NodeOperationError(context.getNode(), 'Stopped waiting for the AWeber rate limit: the execution was cancelled or reached its timeout', {
		description: `${limiter.queued} more requests were waiting for this AWeber account, which allows ${settings.requests} requests per ${formatDuration(settings.windowMs)}. Send fewer items per execution (for example with Loop Over Items), or raise the workflow's timeout.`,
		itemIndex,
	});
}

async function sleepUnlessStopped(
	context: AweberContext,
	ms: number,
	signal: AbortSignal | undefined,
	itemIndex: number | undefined,
	owner: { run: RunState; index: number } | undefined,
) {
	const execution = context.getExecutionCancelSignal?.();
	// An item before the failing one in n8n's order is carried out: only a cancelled execution stops its wait.
	if (owner?.run.failedItem !== undefined && !isDropped(owner.run, owner.index)) signal = execution;
	if (!signal) return await sleep(ms);
	const cancelled = () =>
		owner && execution?.aborted !== true && isDropped(owner.run, owner.index)
			? Object.assign(notSentError(context, owner.run, itemIndex), { aweberNotSent: true })
			: new NodeOperationError(context.getNode(), 'The execution was cancelled while waiting to retry an AWeber request', { itemIndex });
	const stopsThisItem = () => signal!.aborted && (execution?.aborted === true || !owner || owner.run.failedItem === undefined || isDropped(owner.run, owner.index));
	if (stopsThisItem()) throw cancelled();
	// Monotonic: a step of the wall clock does not stretch the wait.
	const until = performance.now() + ms;
	let stopListening: () => void = () => undefined;
	const aborted = new Promise<void>((resolve) => (stopListening = whenAborted(signal, resolve)));
	await Promise.race([sleep(ms), aborted]);
	stopListening();
	if (stopsThisItem()) throw cancelled();
	// The run failed after this item: it comes first in n8n's order, so its retry waits out its time.
	if (performance.now() < until) await sleepUnlessStopped(context, until - performance.now(), execution, itemIndex, owner);
}

/**
 * A workflow with a timeout that its queued AWeber requests cannot meet: say so up front (once a window),
 * not only when n8n stops it.
 */
function warnIfTooLongForTimeout(context: AweberContext, limiter: AccountRateLimiter, settings: AccountSettings): void {
	if (limiter.queued < settings.requests) return;
	const timeoutSeconds = Number(context.getWorkflowSettings?.()?.executionTimeout);
	if (!(timeoutSeconds > 0)) return;
	const neededMs = limiter.estimateWaitMs();
	if (neededMs <= timeoutSeconds * 1000 || !shouldNotify(limiter, 'timeout', settings.windowMs)) return;
	notify(
		context,
		'warn',
		`AWeber: ${limiter.queued} requests are waiting for this account's rate limit of ${settings.requests} per ${formatDuration(settings.windowMs)}; they need about ${formatDuration(neededMs)}, longer than this workflow's timeout of ${formatDuration(timeoutSeconds * 1000)}. Send fewer items per execution or raise the timeout.`,
	);
}

const lastNotices = new WeakMap<AccountRateLimiter, Map<string, number>>();

/** At most one notice of a kind per limiter and window, so a bulk run logs progress, not every request. */
function shouldNotify(limiter: AccountRateLimiter, kind: string, windowMs: number): boolean {
	const byKind = lastNotices.get(limiter) ?? new Map<string, number>();
	lastNotices.set(limiter, byKind);
	const now = performance.now();
	if (now - (byKind.get(kind) ?? -Infinity) < windowMs) return false;
	byKind.set(kind, now);
	return true;
}

/**
 * Tells the user what the node is waiting for: n8n's log, and in manual runs the browser console
 * (declarative nodes cannot add execution hints in n8n 2.38: RoutingNode's hints are not collected).
 */
function notify(context: AweberContext, level: 'info' | 'warn', message: string): void {
	context.logger[level](message, { node: context.getNode().name });
	const toUi = (context as { sendMessageToUI?: (message: string) => void }).sendMessageToUI;
	if (typeof toUi === 'function' && context.getMode?.() === 'manual') {
		try {
			toUi.call(context, `${context.getNode().name}: ${message}`);
		} catch {
			// The editor may be gone; the log has the message.
		}
	}
}

function formatDuration(ms: number): string {
	if (ms < 1000) return `${Math.round(ms)} ms`;
	const seconds = ms / 1000;
	if (seconds < 120) return `${Number(seconds.toFixed(seconds < 10 ? 1 : 0))} s`;
	const minutes = Math.floor(seconds / 60);
	return minutes < 120 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export interface AweberRequest {
	method: IHttpRequestMethods;
	/** A path under /1.0 (`/accounts/1/lists`) or an absolute AWeber link (`self_link`, `next_collection_link`). */
	url: string;
	qs?: IDataObject;
	body?: IDataObject | string;
	/** AWeber wants some writes form-encoded (broadcasts, custom field create). */
	form?: boolean;
	safeToRepeat?: boolean;
	itemIndex?: number;
	/** Where an absolute `url` came from, named if it points outside the credential's API (origin.ts). */
	source?: string;
	/** One of several requests the item has in flight at once (pages read ahead). */
	concurrent?: boolean;
	/** A write that cannot be repeated: what it may have done if its answer is lost, and how to check. */
	ifAnswerLost?: LostAnswerAdvice;
}

/** The one place that makes a hand-written AWeber request (searches, follow-ups of routed requests, triggers). */
export async function aweberApiRequest(context: AweberContext, request: AweberRequest): Promise<IN8nHttpFullResponse> {
	const { settings } = await accountSettings(context);
	const url = isAbsoluteLink(request.url) ? request.url : `${settings.apiBaseUrl}/1.0${request.url}`;
	const headers: IDataObject = { Accept: 'application/json', 'User-Agent': USER_AGENT };
	if (request.body !== undefined && request.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
	const target = { url, method: request.method, apiBaseUrl: settings.apiBaseUrl, itemIndex: request.itemIndex };
	return await sendWithAweberPolicies(context, { ...request, url, source: request.source }, async () =>
		// n8n does not follow redirects with the token; the package follows those that stay on the API (redirects.ts).
		await sendFollowingApiRedirects(context.getNode(), target, async (hop) => {
			const options: IHttpRequestOptions = {
				...NO_AUTOMATIC_REDIRECTS,
				method: hop.method,
				url: hop.url,
				// A redirect's Location carries its whole query.
				qs: hop.redirected ? undefined : request.qs,
				headers: { ...headers },
				returnFullResponse: true,
				json: !request.form,
			};
			if (request.body !== undefined && hop.keepsBody) options.body = request.body;
			else delete options.headers!['Content-Type'];
			return (await context.helpers.httpRequestWithAuthentication.call(
				context as IExecuteSingleFunctions,
				AWEBER_CREDENTIAL_TYPE,
				options,
			)) as IN8nHttpFullResponse;
		}),
	);
}

/** GET an AWeber link or path and return its JSON body. */
export async function aweberGet<T = IDataObject>(
	context: AweberContext,
	url: string,
	qs?: IDataObject,
	options: Pick<AweberRequest, 'source' | 'itemIndex' | 'concurrent'> = {},
): Promise<T> {
	const response = await aweberApiRequest(context, { method: 'GET', url, qs, ...options });
	return response.body as T;
}
