import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isObject } from './answers';
import { AWEBER_IMPORTER } from './bulkAdds';
import type { RateLimitSettings } from './rateLimiter';

/** What AWeber (or the network) answered, read from whatever error n8n's HTTP helpers threw. */
export interface AweberFailure {
	status?: number;
	type?: string;
	message?: string;
	documentationUrl?: string;
	/** Socket-level error code such as ECONNRESET. */
	code?: string;
}

/** What n8n's HTTP helpers' errors (and their causes) carry: n8n 2.x keeps the HTTP client's error, with its `response`, as `cause`. */
export interface ErrorLike {
	message?: string;
	httpCode?: string | null;
	response?: { headers?: Record<string, unknown> };
	context?: { data?: unknown };
	cause?: unknown;
}

/** The package's one error class, made only by `toAweberError` (docs/architecture.md#architecture-the-request-path). */
export class AweberRequestError extends NodeApiError {
	readonly aweberFailure: AweberFailure;

	constructor(node: INode, failure: AweberFailure, options: { description: string; itemIndex?: number }) {
		const message = failure.message ?? 'AWeber request failed';
		super(node, { message, status: failure.status } as JsonObject, {
			message,
			description: options.description,
			httpCode: failure.status ? String(failure.status) : undefined,
			itemIndex: options.itemIndex,
		});
		// NodeApiError swaps some common status messages for generic text; AWeber's own words are clearer.
		this.message = message;
		this.aweberFailure = failure;
	}
}

/** The one walk down an error's `cause` chain, outermost first; five deep is more than n8n nests. */
export function causeChain(error: unknown): ErrorLike[] {
	const chain: ErrorLike[] = [];
	for (let current = error; typeof current === 'object' && current !== null && chain.length < 5; current = (current as { cause?: unknown }).cause) {
		chain.push(current);
	}
	return chain;
}

/**
 * What AWeber (or the network) answered, from any error: an AweberRequestError's own reading, or read from the error n8n's
 * HTTP helpers threw. Every supported n8n throws its NodeApiError outermost (the package wraps anything else as one,
 * redirects.ts): `httpCode` is the status, or the socket's code (ECONNRESET); `context.data` is AWeber's body when it
 * is an object (the mutation runs of errors.ts, test/mutation/runs.json).
 */
export function readAweberFailure(error: unknown): AweberFailure {
	if (error instanceof AweberRequestError) return error.aweberFailure;
	const thrown: ErrorLike = typeof error === 'object' && error !== null ? error : {};
	const body = thrown.context?.data;
	const failure: AweberFailure = {};
	const httpCode = String(thrown.httpCode);
	if (/^E[A-Z_]+$/.test(httpCode)) failure.code = httpCode;
	if (/^\d{3}$/.test(httpCode)) failure.status = Number(httpCode);
	const nested = isObject(body) && isObject(body.error) ? body.error : undefined;
	if (nested) {
		failure.type = stringOrUndefined(nested.type);
		failure.message = stringOrUndefined(nested.message);
		failure.documentationUrl = stringOrUndefined(nested.documentation_url);
	} else if (isObject(body) && typeof body.detail === 'string' && typeof body.title === 'string') {
		// The 2.0-beta API answers application/problem+json: {type, title, status, detail, instance}.
		failure.type = body.title;
		failure.message = body.detail;
	} else if (isObject(body) && typeof body.error === 'string') {
		// RFC 6750 shape used for some token failures.
		failure.type = body.error;
		failure.message = stringOrUndefined(body.error_description) ?? body.error;
	}
	if (!failure.message && thrown.message) failure.message = thrown.message;
	return failure;
}

export function isRateLimitRefusal(failure: AweberFailure): boolean {
	return failure.status === 403 && /rate limit/i.test(failure.message ?? '');
}

/** 5xx answers and dropped connections: AWeber may not have seen the request, or failed before acting. */
export function isTransientFailure(failure: AweberFailure): boolean {
	if (failure.status === 500 || failure.status === 502 || failure.status === 503 || failure.status === 504) return true;
	// A failure has either a status or a socket code (both come from the NodeApiError's httpCode).
	return failure.code !== undefined && ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN'].includes(failure.code);
}

const SCOPE_IN_MESSAGE = /\b(account\.read|landing-page\.read|list\.read|list\.write|subscriber\.read|subscriber\.write|email\.read|email\.write)\b/;

/** Endpoints AWeber's API reference (1.4.0) no longer lists (docs/aweber-behaviour.md#retired-endpoints). */
const RETIRED_MESSAGE_ENDPOINTS = /\/campaigns\/[bf]\d+\/messages(\/|\?|$)/;

const RETIRED_ENDPOINT_HINT =
	"AWeber's current API reference no longer lists the campaign message endpoints (messages, their opens and tracked events, the subscribers of a message), so AWeber may have retired them. Use the AWeber Broadcast node instead: Get Opens and Get Clicks for who opened or clicked a broadcast, Get Statistic(s) for counts.";

/** AWeber's own limit, when the credential's settings are not at hand. */
const AWEBER_LIMITS: RateLimitSettings = { requests: 120, windowMs: 60_000 };

/** One hint: the refusals it applies to (every given condition must hold); a function hint may decline (undefined). */
interface HintRule {
	status?: number;
	message?: RegExp;
	type?: string;
	hint: string | ((failure: AweberFailure, limits: RateLimitSettings, url: string | undefined) => string | undefined);
}

/** The hints, most specific first: the first rule that matches gives the hint. Add a refusal here, one line each. */
const HINTS: HintRule[] = [
	{ status: 401, hint: 'AWeber refused the access token. Open the AWeber credential and reconnect it.' },
	{ status: 403, message: SCOPE_IN_MESSAGE, hint: (failure) => scopeHint(SCOPE_IN_MESSAGE.exec(failure.message ?? '')![1]) },
	{ status: 403, message: /manage email/i, hint: 'The AWeber user who connected the credential lacks the "Manage Email" permission. Ask the account owner to grant it in AWeber (Manage Account > Users), then reconnect.' },
	{ status: 403, message: /rate limit/i, hint: (_failure, limits) => `This credential allows ${limits.requests} requests per ${windowName(limits.windowMs)} for the AWeber account (AWeber's own limit is 120 per minute, shared by every app using the account). The node waited and retried; another app or n8n process may be using the same account.` },
	// The account's standing (docs/aweber-behaviour.md#account-standing); none is retried: sending again does not change the account.
	{ status: 403, message: /subscriber limit/i, hint: "The account has reached its plan's subscriber limit, so AWeber adds no one until it has room; nothing was written for this item. Upgrade the account's plan in AWeber, or remove subscribers you no longer send to, then run the failed items again." },
	{ status: 403, message: /hold|suspend/i, hint: `AWeber has put the account on hold, so it refuses changes to subscribers; nothing was written for this item. Sign in to AWeber to see why and contact AWeber's support to lift it. Holds often follow bulk adds through the API: import existing lists with ${AWEBER_IMPORTER}, not through this node.` },
	{ status: 403, message: /cannot be accepted at this time/i, hint: "AWeber refused this address for now without saying why; nothing was written for this item. Check the address, and if it is right, run the item again later. If AWeber refuses every address, check the account in AWeber: it may be under review." },
	{ status: 400, message: /already subscribed/i, hint: 'This email address is already on the list. To update that subscriber instead, use the Create or Update operation, or turn on the "Update Existing" option.' },
	{ status: 405, message: /unconfirmed/i, hint: 'AWeber cannot move or delete a subscriber who has not confirmed their address yet (status "unconfirmed"). Wait for the confirmation, or unsubscribe them instead.' },
	{ status: 405, message: /already belongs/i, hint: 'The subscriber is already on the destination list. Choose another list, or update the subscriber on that list instead.' },
	{ status: 409, message: /schedul/i, hint: 'Only a draft broadcast can be scheduled. To change the time of a scheduled broadcast, cancel it, then schedule it again; a broadcast that is sending or sent cannot be scheduled.' },
	{ status: 409, message: /cancel/i, hint: 'Only a scheduled broadcast that has not started sending can be cancelled.' },
	{ status: 409, hint: "AWeber lets the API change or delete only drafts created through the API: cancel a scheduled broadcast first; sent broadcasts and drafts made in AWeber's editor cannot be changed." },
	{ type: 'BroadcastDatetimeExpired', hint: "The time has already passed by AWeber's clock. Choose a later time." },
	{ status: 404, hint: (_failure, _limits, url) => (url !== undefined && RETIRED_MESSAGE_ENDPOINTS.test(url) ? RETIRED_ENDPOINT_HINT : undefined) },
	{ status: 404, message: /requested broadcast could not be found/i, hint: "AWeber's link report (beta) does not know this broadcast. The node sends the UUID of the broadcast chosen: check that it is on the chosen list and was sent." },
	{ status: 404, message: /requested account could not be found/i, hint: "AWeber's link report (beta) does not know this account. The node sends the UUID of the account chosen: check that the credential belongs to that account." },
	{ status: 404, message: /campaign/i, hint: 'AWeber has no such campaign. A broadcast becomes a campaign, with statistics, only once it has been sent.' },
	{ status: 404, hint: 'AWeber has no such resource: check the IDs chosen in the node.' },
	{ status: 415, hint: 'AWeber refused the body encoding of this request.' },
];

function hintFor(failure: AweberFailure, limits: RateLimitSettings = AWEBER_LIMITS, url?: string): string | undefined {
	const message = failure.message ?? '';
	for (const rule of HINTS) {
		if (rule.status !== undefined && rule.status !== failure.status) continue;
		if (rule.type !== undefined && rule.type !== failure.type) continue;
		if (rule.message && !rule.message.test(message)) continue;
		const hint = typeof rule.hint === 'string' ? rule.hint : rule.hint(failure, limits, url);
		if (hint !== undefined) return hint;
	}
	return undefined;
}

function scopeHint(scope: string): string {
	return `The credential was not granted the "${scope}" scope. Add ${scope} to the credential's Scope field, then reconnect the credential so the AWeber customer authorizes it again.`;
}

/** "minute" for AWeber's window, otherwise the window's length ("6 s" in a time-scaled sandbox). */
export function windowName(windowMs: number): string {
	if (windowMs === 60_000) return 'minute';
	return windowMs % 1000 === 0 ? `${windowMs / 1000} s` : `${windowMs} ms`;
}

/**
 * AWeber's refusal as an n8n error: AWeber's message, type, HTTP status and documentation link, plus a hint. Never given
 * the package's own error: `asNodeError` hands n8n's errors back as they are, and the request path passes its own on.
 */
export function toAweberError(node: INode, error: unknown, itemIndex?: number, limits?: RateLimitSettings, url?: string): AweberRequestError {
	const failure = readAweberFailure(error);
	const details = [
		hintFor(failure, limits, url),
		failure.type ? `AWeber error type: ${failure.type}` : undefined,
		failure.status ? `HTTP status: ${failure.status}` : undefined,
		failure.documentationUrl ? `Documentation: ${failure.documentationUrl}` : undefined,
	].filter(Boolean);
	return new AweberRequestError(node, failure, { description: details.join('\n'), itemIndex });
}

/** The one place that turns a failure into an n8n error; `fromRequest: false` for the package's own checks and waits. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number, url?: string, fromRequest = true): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (!fromRequest) return new NodeOperationError(node, error as Error, { itemIndex });
	return toAweberError(node, error, itemIndex, undefined, url);
}

function stringOrUndefined(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}
