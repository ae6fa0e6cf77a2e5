import type {
	IDataObject,
	IExecuteSingleFunctions,
	RequestHelperFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { AWEBER_CREDENTIAL_TYPE, USER_AGENT } from './constants';
import { isRateLimitRefusal, isTransientFailure, readAweberFailure, toAweberError } from './errors';
import { rateLimiterFor, type RateLimitSettings } from './rateLimiter';

/** What the shared request path needs from any n8n context (execute, load options, hooks, polls, webhooks). */
export type AweberContext = Pick<IExecuteSingleFunctions, 'getNode' | 'getCredentials' | 'logger'> & {
	helpers: Pick<RequestHelperFunctions, 'httpRequestWithAuthentication'>;
};

export const MAX_RATE_LIMIT_WAITS = 5;

/**
 * Rate-limit slots held per item context while its routed request is being handled. A follow-up request made
 * while handling a response (following Location, reading a self_link) releases the item's slot first: its HTTP
 * exchange is over, and holding it while waiting for a new one could deadlock a full window of such requests.
 */
const heldSlots = new WeakMap<object, { release: () => void }>();

/** RoutingNode hands the pagination hook a child of the item's context and postReceive the context itself. */
function itemContextOf(context: AweberContext): object {
	return Object.prototype.hasOwnProperty.call(context, 'makeRoutingRequest') ? (Object.getPrototypeOf(context) as object) : context;
}
export const MAX_TRANSIENT_RETRIES = 4;

interface SendOptions {
	method?: IHttpRequestMethods | string;
	url?: string;
	/** A POST that AWeber can safely see twice (the caller handles the duplicate refusal). */
	safeToRepeat?: boolean;
	itemIndex?: number;
}

const settingsCache = new Map<string, { settings: RateLimitSettings & { apiBaseUrl: string }; readAt: number }>();

async function accountSettings(context: AweberContext): Promise<{ key: string; settings: RateLimitSettings & { apiBaseUrl: string } }> {
	const credentialRef = context.getNode().credentials?.[AWEBER_CREDENTIAL_TYPE];
	const key = credentialRef?.id ?? credentialRef?.name ?? 'aweber';
	const cached = settingsCache.get(key);
	// Credential reads can hit n8n's database; the limit settings rarely change, so read them at most every 30 s.
	if (cached && Date.now() - cached.readAt < 30_000) return { key, settings: cached.settings };
	const credentials = await context.getCredentials(AWEBER_CREDENTIAL_TYPE);
	const requests = Number(credentials.rateLimitRequests) > 0 ? Number(credentials.rateLimitRequests) : 120;
	const windowSeconds = Number(credentials.rateLimitWindowSeconds) > 0 ? Number(credentials.rateLimitWindowSeconds) : 60;
	const settings = {
		requests,
		windowMs: windowSeconds * 1000,
		apiBaseUrl: String(credentials.apiBaseUrl ?? 'https://api.aweber.com').replace(/\/+$/, ''),
	};
	settingsCache.set(key, { settings, readAt: Date.now() });
	return { key, settings };
}

function isIdempotent(method: string | undefined): boolean {
	return ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'].includes((method ?? 'GET').toUpperCase());
}

/**
 * Sends one AWeber request under the account's pacing, waits out "Rate Limit Error" lockouts,
 * retries transient failures with bounded exponential backoff when the request is safe to repeat,
 * and turns AWeber's refusals into clear n8n errors.
 */
export async function sendWithAweberPolicies<T>(
	context: AweberContext,
	request: SendOptions,
	send: (attempt: number) => Promise<T>,
): Promise<T> {
	const { key, settings } = await accountSettings(context);
	const limiter = rateLimiterFor(key, settings);
	// Backoff follows the account's window so a time-scaled sandbox scales retries too (1 s at AWeber's 60 s).
	const backoffBaseMs = settings.windowMs / 60;
	let rateLimitWaits = 0;
	let transientRetries = 0;
	for (let attempt = 0; ; attempt++) {
		const itemContext = itemContextOf(context);
		heldSlots.get(itemContext)?.release();
		const slot = await limiter.acquire();
		if (slot.waitedMs > settings.windowMs / 4) {
			context.logger.info(`AWeber: waited ${Math.round(slot.waitedMs)} ms to stay under the account's rate limit`, {
				node: context.getNode().name,
			});
		}
		try {
			heldSlots.set(itemContext, slot);
			return await send(attempt);
		} catch (error) {
			const failure = readAweberFailure(error);
			if (isRateLimitRefusal(failure) && rateLimitWaits < MAX_RATE_LIMIT_WAITS) {
				rateLimitWaits++;
				const lockoutMs = limiter.lockOut();
				context.logger.warn(
					`AWeber answered "Rate Limit Error"; waiting ${Math.round(lockoutMs)} ms for the lockout to end (wait ${rateLimitWaits} of ${MAX_RATE_LIMIT_WAITS})`,
					{ node: context.getNode().name },
				);
				continue;
			}
			const repeatable = isIdempotent(request.method) || request.safeToRepeat === true;
			if (isTransientFailure(failure) && repeatable && transientRetries < MAX_TRANSIENT_RETRIES) {
				const delayMs = backoffBaseMs * 2 ** transientRetries;
				transientRetries++;
				context.logger.warn(
					`AWeber request failed (${failure.status ?? failure.code}); retry ${transientRetries} of ${MAX_TRANSIENT_RETRIES} in ${Math.round(delayMs)} ms`,
					{ node: context.getNode().name },
				);
				slot.release();
				await sleep(delayMs);
				continue;
			}
			const mapped = toAweberError(context.getNode(), error, request.itemIndex);
			if (isRateLimitRefusal(failure)) {
				mapped.description = `AWeber still answered "Rate Limit Error" after ${MAX_RATE_LIMIT_WAITS} lockout waits. Another app or workflow is probably using this account's budget of ${settings.requests} requests per ${settings.windowMs / 1000} s.\n${mapped.description ?? ''}`;
			}
			Object.assign(mapped, { aweberAttempts: attempt + 1 });
			throw mapped;
		} finally {
			slot.release();
			if (heldSlots.get(itemContext) === slot) heldSlots.delete(itemContext);
		}
	}
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
	return await sendWithAweberPolicies(context, request, async () =>
		(await context.helpers.httpRequestWithAuthentication.call(
			context as IExecuteSingleFunctions,
			AWEBER_CREDENTIAL_TYPE,
			{ ...options },
		)) as IN8nHttpFullResponse,
	);
}

/** GET an AWeber link or path and return its JSON body. */
export async function aweberGet<T = IDataObject>(context: AweberContext, url: string, qs?: IDataObject): Promise<T> {
	const response = await aweberApiRequest(context, { method: 'GET', url, qs });
	return response.body as T;
}
