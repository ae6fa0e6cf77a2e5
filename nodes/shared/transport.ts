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
import { isRateLimitRefusal, isTransientFailure, readAweberFailure, toAweberError, type AweberFailure } from './errors';
import {
	RateLimitWaitAborted,
	rateLimiterFor,
	type AccountRateLimiter,
	type RateLimitSettings,
	type RateLimitSlot,
} from './rateLimiter';

/** What the shared request path needs from any n8n context (execute, load options, hooks, polls, webhooks). */
export type AweberContext = Pick<IExecuteSingleFunctions, 'getNode' | 'getCredentials' | 'logger'> &
	Partial<Pick<IExecuteSingleFunctions, 'getExecutionCancelSignal' | 'getWorkflowSettings' | 'getMode'>> & {
		helpers: Pick<RequestHelperFunctions, 'httpRequestWithAuthentication'>;
	};

/** "Rate Limit Error" lockouts waited out for one request before giving up: AWeber's budget is being used elsewhere. */
export const MAX_RATE_LIMIT_WAITS = 5;

/** Retries of a 5xx or dropped connection, 1, 2, 4 and 8 s apart at AWeber's window (15 s in all). */
export const MAX_TRANSIENT_RETRIES = 4;

/**
 * The rate-limit slot held by each item's request whose handling is running now. A follow-up request the
 * item makes while its response is handled (following Location, reading a self_link) releases that slot
 * first: the HTTP exchange is over, and holding it while waiting for a new one could deadlock a full window
 * of such requests. (Keyed by the item's context: n8n Cloud does not allow node:async_hooks.)
 */
const heldSlots = new WeakMap<object, RateLimitSlot>();

/** The item contexts that already sent a request: their next requests continue started work. */
const startedItems = new WeakSet<object>();

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

function isIdempotent(method: string | undefined): boolean {
	return ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'].includes((method ?? 'GET').toUpperCase());
}

/**
 * Add subscriber (`POST /accounts/{a}/lists/{l}/subscribers` with an email) is the one AWeber write that is
 * safe to send again after an unknown outcome: AWeber refuses a second add of the same address with
 * 400 "… is already subscribed to this list.", and the subscriber the first attempt created can be read back.
 * Returns the list's subscriber collection and the email when the request is such an add.
 */
export function subscriberAddOf(
	method: string | undefined,
	url: string | undefined,
	body: unknown,
): { collectionUrl: string; email: string } | undefined {
	if ((method ?? '').toUpperCase() !== 'POST' || !url) return undefined;
	const match = /^(.*\/accounts\/\d+\/lists\/\d+\/subscribers)\/?(?:\?.*)?$/.exec(url);
	if (!match) return undefined;
	const email = emailInBody(body);
	return email ? { collectionUrl: match[1], email } : undefined;
}

function emailInBody(body: unknown): string | undefined {
	let email: unknown;
	if (typeof body === 'string') email = new URLSearchParams(body).get('email');
	else if (body instanceof URLSearchParams) email = body.get('email');
	else if (typeof body === 'object' && body !== null) email = (body as IDataObject).email;
	return typeof email === 'string' && email.trim() !== '' ? email.trim() : undefined;
}

function isAlreadySubscribedRefusal(failure: AweberFailure): boolean {
	return failure.status === 400 && /already subscribed/i.test(failure.message ?? '');
}

/** Reads the subscriber an earlier attempt of a retried add created, by its email (AWeber's `find`). */
async function findAddedSubscriber(
	context: AweberContext,
	add: { collectionUrl: string; email: string },
): Promise<IDataObject | undefined> {
	const found = await aweberGet<{ entries?: IDataObject[] }>(context, add.collectionUrl, { 'ws.op': 'find', email: add.email });
	return found.entries?.[0];
}

export interface SendOptions<T> {
	method?: IHttpRequestMethods | string;
	/** The request's absolute URL (recognises add subscriber). */
	url?: string;
	body?: unknown;
	/** A write AWeber can safely see twice (beyond the idempotent methods and add subscriber). */
	safeToRepeat?: boolean;
	itemIndex?: number;
	/**
	 * One of several requests the item runs at the same time (pages read ahead): its handling makes no
	 * follow-up requests, so its slot is not the item's held slot.
	 */
	concurrent?: boolean;
	/**
	 * The result a successful add subscriber would have given, when a retry of it met AWeber's duplicate
	 * refusal: AWeber's answer would have been 201 with the subscriber's URL in Location.
	 */
	asCreated?: (location: string, subscriber: IDataObject) => Promise<T>;
}

/**
 * Sends one AWeber request under the account's pacing, waits out "Rate Limit Error" lockouts,
 * retries transient failures with bounded exponential backoff when the request is safe to repeat,
 * and turns AWeber's refusals into clear n8n errors.
 */
export async function sendWithAweberPolicies<T>(
	context: AweberContext,
	request: SendOptions<T>,
	send: (attempt: number) => Promise<T>,
): Promise<T> {
	const { key, settings } = await accountSettings(context);
	const limiter = rateLimiterFor(key, settings);
	// Backoff follows the account's window so a time-scaled sandbox scales retries too (1 s at AWeber's 60 s).
	const backoffBaseMs = settings.windowMs / 60;
	const subscriberAdd = subscriberAddOf(request.method, request.url, request.body);
	const repeatable = isIdempotent(request.method) || request.safeToRepeat === true || subscriberAdd !== undefined;
	const signal = context.getExecutionCancelSignal?.();
	const itemKey = itemContextOf(context);
	let rateLimitWaits = 0;
	let transientRetries = 0;
	// Set once an attempt may have been carried out although its answer was lost (5xx, dropped connection).
	let outcomeUnknown = false;
	for (let attempt = 0; ; attempt++) {
		const continuing = attempt > 0 || (itemKey !== undefined && startedItems.has(itemKey));
		if (itemKey !== undefined) heldSlots.get(itemKey)?.release();
		warnIfTooLongForTimeout(context, limiter, settings);
		const slot = await acquireSlot(context, limiter, settings, { priority: continuing, signal }, request.itemIndex);
		if (itemKey !== undefined) {
			startedItems.add(itemKey);
			if (!request.concurrent) heldSlots.set(itemKey, slot);
		}
		try {
			return await send(attempt);
		} catch (error) {
			const failure = readAweberFailure(error);
			// A follow-up request made while handling this one already applied these policies, and errors
			// that are not AWeber's answer (a refused field, a cancelled run) are not retried: pass them on.
			if ((error as { aweberMapped?: boolean }).aweberMapped || (failure.status === undefined && failure.code === undefined)) {
				throw asNodeError(context, error, request.itemIndex);
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
				await sleepUnlessCancelled(context, delayMs, signal, request.itemIndex);
				continue;
			}
			if (subscriberAdd && outcomeUnknown && isAlreadySubscribedRefusal(failure)) {
				slot.release();
				const subscriber = await findAddedSubscriber(context, subscriberAdd);
				if (subscriber && typeof subscriber.self_link === 'string') {
					context.logger.info(
						`AWeber: a retried add of ${subscriberAdd.email} was refused as a duplicate; the first attempt had added it, so its subscriber is the result`,
						{ node: context.getNode().name },
					);
					return request.asCreated
						? await request.asCreated(subscriber.self_link, subscriber)
						: (createdResponse(subscriber.self_link) as T);
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
			if (itemKey !== undefined && heldSlots.get(itemKey) === slot) heldSlots.delete(itemKey);
		}
	}
}

/** n8n's own errors as they are; anything else as AWeber's error. */
function asNodeError(context: AweberContext, error: unknown, itemIndex: number | undefined): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return toAweberError(context.getNode(), error, itemIndex);
}

/**
 * The per-item context a request comes from. RoutingNode hands `requestOperations.pagination` an object
 * created from the item's context (adding makeRoutingRequest); preSend and postReceive get the item's
 * context itself. Both map to the same item.
 */
function itemContextOf(context: AweberContext): object | undefined {
	if (typeof (context as { getItemIndex?: unknown }).getItemIndex !== 'function') return undefined;
	return Object.prototype.hasOwnProperty.call(context, 'makeRoutingRequest') ? Object.getPrototypeOf(context) : context;
}

async function acquireSlot(
	context: AweberContext,
	limiter: AccountRateLimiter,
	settings: AccountSettings,
	options: { priority: boolean; signal?: AbortSignal },
	itemIndex: number | undefined,
) {
	let slot;
	try {
		slot = await limiter.acquire(options);
	} catch (error) {
		// The limiter only stops a wait when the execution was cancelled.
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

async function sleepUnlessCancelled(context: AweberContext, ms: number, signal: AbortSignal | undefined, itemIndex: number | undefined) {
	if (!signal) return await sleep(ms);
	const cancelled = () => new NodeOperationError(context.getNode(), 'The execution was cancelled while waiting to retry an AWeber request', { itemIndex });
	if (signal.aborted) throw cancelled();
	let stopWaiting: () => void = () => undefined;
	const aborted = new Promise<void>((resolve) => (stopWaiting = resolve));
	signal.addEventListener('abort', stopWaiting, { once: true });
	await Promise.race([sleep(ms), aborted]);
	signal.removeEventListener('abort', stopWaiting);
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

/** AWeber's answer to a successful add subscriber. */
function createdResponse(location: string): IN8nHttpFullResponse {
	return { statusCode: 201, headers: { location }, body: '' };
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
}

/** The one place that makes a hand-written AWeber request (searches, follow-ups of routed requests, triggers). */
export async function aweberApiRequest(context: AweberContext, request: AweberRequest): Promise<IN8nHttpFullResponse> {
	const { settings } = await accountSettings(context);
	const url = /^https?:\/\//.test(request.url) ? request.url : `${settings.apiBaseUrl}/1.0${request.url}`;
	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		qs: request.qs,
		headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
		returnFullResponse: true,
		json: !request.form,
	};
	if (request.body !== undefined) {
		options.body = request.body;
		if (request.form) {
			options.headers!['Content-Type'] = 'application/x-www-form-urlencoded';
		}
	}
	return await sendWithAweberPolicies(context, { ...request, url }, async () =>
		(await context.helpers.httpRequestWithAuthentication.call(context as IExecuteSingleFunctions, AWEBER_CREDENTIAL_TYPE, {
			...options,
			headers: { ...options.headers },
		})) as IN8nHttpFullResponse,
	);
}

/** GET an AWeber link or path and return its JSON body. */
export async function aweberGet<T = IDataObject>(context: AweberContext, url: string, qs?: IDataObject): Promise<T> {
	const response = await aweberApiRequest(context, { method: 'GET', url, qs });
	return response.body as T;
}
