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
import { isRateLimitRefusal, isTransientFailure, readAweberFailure, toAweberError, type AweberFailure } from './errors';
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

/** "Rate Limit Error" lockouts waited out for one request before giving up: AWeber's budget is being used elsewhere. */
export const MAX_RATE_LIMIT_WAITS = 5;

/** Retries of a 5xx or dropped connection, 1, 2, 4 and 8 s apart at AWeber's window (15 s in all). */
export const MAX_TRANSIENT_RETRIES = 4;

/**
 * What one node run's items share while they send, keyed by the run's execute data (one object for every
 * item of a node run, routing.ts A5; weakly held, so it goes with the run):
 * - per item (by index): the rate-limit slot its request holds while its response is handled, and whether
 *   it already sent something (its next requests continue started work and go first). A follow-up request
 *   the item makes while handling a response (following Location, reading a self_link) releases the held
 *   slot first: the HTTP exchange is over, and holding it while waiting for a new one could deadlock a
 *   full window of such requests;
 * - the items that wrote to AWeber, and the first item that failed for good with Continue On Fail off:
 *   from then on the run's queued requests are dropped (the run fails anyway and n8n drops its output).
 */
interface RunState {
	items: Map<number, ItemState>;
	written: Set<number>;
	stop: AbortController;
	/** The execution's cancel signal combined with `stop`. */
	signal?: AbortSignal;
	failedItem?: number;
	failureMessage?: string;
}

interface ItemState {
	heldSlot?: RateLimitSlot;
	started: boolean;
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
		run = { items: new Map(), written: new Set(), stop: new AbortController() };
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

/**
 * An item failed for good and the node does not continue on fail: n8n will fail the run and drop every
 * item's output, so the requests still queued are not sent. The error says what was already written.
 */
function stopRun(run: RunState, index: number, error: NodeApiError | NodeOperationError): void {
	if (run.failedItem !== undefined) return;
	run.failedItem = index;
	run.failureMessage = error.message;
	run.stop.abort();
	// A single item's failure needs no account of the others.
	if (run.items.size <= 1) return;
	const written = [...run.written].filter((written) => written !== index).length;
	error.description =
		`${error.description ? `${error.description}\n` : ''}` +
		`${written} item${written === 1 ? ' was' : 's were'} already written to AWeber before this failure; the requests still waiting were not sent. ` +
		'Turn on the node\'s "On Error: Continue" setting to get every item\'s own result instead.';
}

/** The error of a request that was dropped because an earlier item failed the run. */
function notSentError(context: AweberContext, run: RunState, itemIndex: number | undefined): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Not sent to AWeber: item ${(run.failedItem ?? 0) + 1} failed first (${run.failureMessage ?? 'an error'})`,
		{
			description: 'The node stops sending once an item fails and "On Error" is set to stop the workflow.',
			itemIndex,
		},
	);
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
	if (cached && Date.now() - cached.readAt < 1_000) return { key, settings: await cached.settings };
	const settings = readAccountSettings(context);
	settingsCache.set(key, { settings, readAt: Date.now() });
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

function isAlreadySubscribedRefusal(failure: AweberFailure): boolean {
	return failure.status === 400 && /already subscribed/i.test(failure.message ?? '');
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
	recoverDuplicate?: () => Promise<T | undefined>;
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
	const signal = stopSignal(context.getExecutionCancelSignal?.(), owner?.run);
	let rateLimitWaits = 0;
	let transientRetries = 0;
	let refreshRaceRetried = false;
	// Set once an attempt may have been carried out although its answer was lost (5xx, dropped connection).
	let outcomeUnknown = false;
	try {
		for (let attempt = 0; ; attempt++) {
			const continuing = attempt > 0 || owner?.item.started === true;
			owner?.item.heldSlot?.release();
			warnIfTooLongForTimeout(context, limiter, settings);
			const slot = await acquireSlot(context, limiter, settings, { priority: continuing, signal }, request.itemIndex, owner?.run);
			if (owner?.run.failedItem !== undefined && owner.run.failedItem !== owner.index) {
				// Another item failed the run while this one's turn came.
				slot.release();
				throw Object.assign(notSentError(context, owner.run, request.itemIndex), { aweberNotSent: true });
			}
			if (owner) {
				owner.item.started = true;
				if (!request.concurrent) owner.item.heldSlot = slot;
			}
			const tracked = trackSend(key, async () => await send(attempt));
			try {
				const result = await tracked.result;
				if (isWrite && owner) owner.run.written.add(owner.index);
				return result;
			} catch (error) {
				const failure = readAweberFailure(error);
				// A follow-up request made while handling this one already applied these policies, and errors
				// that are not AWeber's answer (a refused field, a cancelled run) are not retried: pass them on.
				if ((error as { aweberMapped?: boolean }).aweberMapped || (failure.status === undefined && failure.code === undefined)) {
					throw asNodeError(context, error, request.itemIndex);
				}
				// The request was not carried out (refused at the token endpoint), so even a write may be sent again.
				if (!refreshRaceRetried && (await tracked.lostRefreshRace(failure))) {
					refreshRaceRetried = true;
					continue;
				}
				if (isRateLimitRefusal(failure) && rateLimitWaits < MAX_RATE_LIMIT_WAITS) {
					rateLimitWaits++;
					const lockout = limiter.lockOut();
					if (lockout.started) {
						notify(
							context,
							'warn',
							`AWeber answered "Rate Limit Error" (another app or workflow may be using this account's budget); waiting ${formatDuration(lockout.waitMs)} for the lockout to end, then retrying`,
						);
					}
					continue;
				}
				if (isTransientFailure(failure) && repeatable && transientRetries < MAX_TRANSIENT_RETRIES) {
					const delayMs = backoffBaseMs * 2 ** transientRetries;
					transientRetries++;
					outcomeUnknown = true;
					context.logger.warn(
						`AWeber request failed (${failure.status ?? failure.code}); retry ${transientRetries} of ${MAX_TRANSIENT_RETRIES} in ${formatDuration(delayMs)}`,
						{ node: context.getNode().name },
					);
					slot.release();
					await sleepUnlessStopped(context, delayMs, signal, request.itemIndex, owner?.run);
					continue;
				}
				if (request.recoverDuplicate && outcomeUnknown && isAlreadySubscribedRefusal(failure)) {
					slot.release();
					const recovered = await request.recoverDuplicate();
					if (recovered !== undefined) {
						if (owner) owner.run.written.add(owner.index);
						return recovered;
					}
				}
				const mapped = toAweberError(context.getNode(), error, request.itemIndex);
				if (isRateLimitRefusal(failure)) {
					mapped.description = `AWeber still answered "Rate Limit Error" after ${MAX_RATE_LIMIT_WAITS} lockout waits. Another app or workflow is probably using this account's budget of ${settings.requests} requests per ${formatDuration(settings.windowMs)}.\n${mapped.description ?? ''}`;
				}
				Object.assign(mapped, { aweberAttempts: attempt + 1 });
				throw mapped;
			} finally {
				slot.release();
				if (owner && owner.item.heldSlot === slot) owner.item.heldSlot = undefined;
			}
		}
	} catch (error) {
		// The item failed for good: unless the node continues on fail, the run's other queued requests are dropped.
		if (owner && owner.run.failedItem === undefined && !continuesOnFail(context) && isFinalError(error)) {
			stopRun(owner.run, owner.index, error);
		}
		throw asNodeError(context, error, request.itemIndex);
	}
}

function isFinalError(error: unknown): error is NodeApiError | NodeOperationError {
	return (error instanceof NodeApiError || error instanceof NodeOperationError) && !(error as { aweberNotSent?: boolean }).aweberNotSent;
}

/** n8n's own errors as they are; anything else as AWeber's error. */
function asNodeError(context: AweberContext, error: unknown, itemIndex: number | undefined): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return toAweberError(context.getNode(), error, itemIndex);
}

async function acquireSlot(
	context: AweberContext,
	limiter: AccountRateLimiter,
	settings: AccountSettings,
	options: { priority: boolean; signal?: AbortSignal },
	itemIndex: number | undefined,
	run: RunState | undefined,
) {
	let slot;
	try {
		slot = await limiter.acquire(options);
	} catch (error) {
		// The limiter only stops a wait when the execution was cancelled or the run failed.
		if (run?.failedItem !== undefined) throw Object.assign(notSentError(context, run, itemIndex), { aweberNotSent: true });
		throw cancelledWhileWaiting(context, limiter, settings, itemIndex, error instanceof RateLimitWaitAborted ? undefined : error);
	}
	if (slot.waitedMs > settings.windowMs / 4 && shouldNotify(limiter, 'wait', settings.windowMs)) {
		const still = limiter.queued;
		notify(
			context,
			'info',
			`AWeber: waited ${formatDuration(slot.waitedMs)} to stay under the account's rate limit of ${settings.requests} requests per ${formatDuration(settings.windowMs)}` +
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
	run: RunState | undefined,
) {
	if (!signal) return await sleep(ms);
	const cancelled = () =>
		run?.failedItem !== undefined
			? Object.assign(notSentError(context, run, itemIndex), { aweberNotSent: true })
			: new NodeOperationError(context.getNode(), 'The execution was cancelled while waiting to retry an AWeber request', { itemIndex });
	if (signal.aborted) throw cancelled();
	let stopListening: () => void = () => undefined;
	const aborted = new Promise<void>((resolve) => (stopListening = whenAborted(signal, resolve)));
	await Promise.race([sleep(ms), aborted]);
	stopListening();
	if (signal.aborted) throw cancelled();
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
	const now = Date.now();
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
