import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** What AWeber (or the network) answered, read from whatever error n8n's HTTP helpers threw. */
export interface AweberFailure {
	status?: number;
	type?: string;
	message?: string;
	documentationUrl?: string;
	/** Socket-level error code such as ECONNRESET. */
	code?: string;
	body?: unknown;
}

interface ErrorLike {
	message?: string;
	code?: string;
	httpCode?: string | null;
	status?: number;
	statusCode?: number;
	response?: { status?: number; data?: unknown; body?: unknown };
	/** n8n 1.x's NodeApiError keeps the response body here (and no `cause`). */
	context?: { data?: unknown };
	cause?: unknown;
}

export function readAweberFailure(error: unknown): AweberFailure {
	const failure: AweberFailure = {};
	// NodeApiError keeps the original HTTP client error as `cause`; walk down the chain.
	let current = error as ErrorLike | undefined;
	for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
		failure.status ??= current.response?.status ?? current.statusCode ?? current.status;
		failure.body ??= current.response?.data ?? current.response?.body ?? current.context?.data;
		if (!failure.code && typeof current.code === 'string' && /^E[A-Z_]+$/.test(current.code)) failure.code = current.code;
		// n8n 1.x's NodeApiError keeps a dropped connection's code (ECONNRESET) as its httpCode.
		if (!failure.code && typeof current.httpCode === 'string' && /^E[A-Z_]+$/.test(current.httpCode)) failure.code = current.httpCode;
		if (failure.status === undefined && current.httpCode && /^\d{3}$/.test(current.httpCode)) {
			failure.status = Number(current.httpCode);
		}
		current = current.cause as ErrorLike | undefined;
	}
	const body = parseBody(failure.body);
	failure.body = body;
	const nested = isObject(body) && isObject(body.error) ? body.error : undefined;
	if (nested) {
		failure.type = stringOrUndefined(nested.type);
		failure.message = stringOrUndefined(nested.message);
		failure.documentationUrl = stringOrUndefined(nested.documentation_url);
		failure.status ??= typeof nested.status === 'number' ? nested.status : undefined;
	} else if (isObject(body) && typeof body.detail === 'string' && typeof body.title === 'string') {
		// The 2.0-beta API answers application/problem+json: {type, title, status, detail, instance}.
		failure.type = body.title;
		failure.message = body.detail;
		failure.status ??= typeof body.status === 'number' ? body.status : undefined;
	} else if (isObject(body) && typeof body.error === 'string') {
		// RFC 6750 shape used for some token failures.
		failure.type = body.error;
		failure.message = stringOrUndefined(body.error_description) ?? body.error;
	}
	if (!failure.message && (error as ErrorLike)?.message) failure.message = (error as ErrorLike).message;
	return failure;
}

export function isRateLimitRefusal(failure: AweberFailure): boolean {
	return failure.status === 403 && /rate limit/i.test(failure.message ?? '');
}

/** 5xx answers and dropped connections: AWeber may not have seen the request, or failed before acting. */
export function isTransientFailure(failure: AweberFailure): boolean {
	if (failure.status === 500 || failure.status === 502 || failure.status === 503 || failure.status === 504) return true;
	if (failure.status === undefined && failure.code !== undefined) {
		return ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'EAI_AGAIN'].includes(failure.code);
	}
	return false;
}

const SCOPE_IN_MESSAGE = /\b(account\.read|landing-page\.read|list\.read|list\.write|subscriber\.read|subscriber\.write|email\.read|email\.write)\b/;

/**
 * Campaign messages, their opens and tracked events, and the subscribers of a message: AWeber's current API
 * reference (1.4.0) no longer lists these endpoints (docs/aweber-behaviour.md#retired-endpoints).
 */
const RETIRED_MESSAGE_ENDPOINTS = /\/campaigns\/[bf]\d+\/messages(\/|\?|$)/;

export const RETIRED_ENDPOINT_HINT =
	"AWeber's current API reference no longer lists the campaign message endpoints (messages, their opens and tracked events, the subscribers of a message), so AWeber may have retired them. Use the AWeber Broadcast node instead: Get Opens and Get Clicks for who opened or clicked a broadcast, Get Statistic(s) for counts.";

/** A hint that tells the user what to do, for the refusals where one helps; `url` is the request's. */
export function hintFor(failure: AweberFailure, url?: string): string | undefined {
	const message = failure.message ?? '';
	if (failure.status === 401) {
		return 'AWeber refused the access token. Open the AWeber credential and reconnect it.';
	}
	if (failure.status === 403) {
		const scope = SCOPE_IN_MESSAGE.exec(message)?.[1];
		if (scope) {
			return `The credential was not granted the "${scope}" scope. Add ${scope} to the credential's Scope field, then reconnect the credential so the AWeber customer authorizes it again.`;
		}
		if (/manage email/i.test(message)) {
			return 'The AWeber user who connected the credential lacks the "Manage Email" permission. Ask the account owner to grant it in AWeber (Manage Account > Users), then reconnect.';
		}
		if (/rate limit/i.test(message)) {
			return 'AWeber allows 120 requests per minute per account. The node waited and retried; another app may be using the same account.';
		}
		if (/subscriber limit|hold|suspend/i.test(message)) {
			return 'AWeber is refusing changes on this account (subscriber limit, hold or suspension). Check the account in AWeber.';
		}
	}
	if (failure.status === 400 && /already subscribed/i.test(message)) return 'This email address is already on the list. To update that subscriber instead, use the Create or Update operation, or turn on the "Update Existing" option.';
	if (failure.status === 405 && /unconfirmed/i.test(message)) return 'AWeber cannot move or delete a subscriber who has not confirmed their address yet (status "unconfirmed"). Wait for the confirmation, or unsubscribe them instead.';
	if (failure.status === 405 && /already belongs/i.test(message)) return 'The subscriber is already on the destination list. Choose another list, or update the subscriber on that list instead.';
	if (failure.status === 409 && /schedul/i.test(message)) return 'Only a draft broadcast can be scheduled. To change the time of a scheduled broadcast, cancel it, then schedule it again; a broadcast that is sending or sent cannot be scheduled.';
	if (failure.status === 409 && /cancel/i.test(message)) return 'Only a scheduled broadcast that has not started sending can be cancelled.';
	if (failure.status === 409) return "AWeber lets the API change or delete only drafts created through the API: cancel a scheduled broadcast first; sent broadcasts and drafts made in AWeber's editor cannot be changed.";
	if (failure.type === 'BroadcastDatetimeExpired') return "The time has already passed by AWeber's clock. Choose a later time.";
	if (failure.status === 404 && url !== undefined && RETIRED_MESSAGE_ENDPOINTS.test(url)) return RETIRED_ENDPOINT_HINT;
	if (failure.status === 404 && /requested broadcast could not be found/i.test(message)) {
		return "AWeber's link report (beta) does not know this broadcast. The node sends the UUID of the broadcast chosen: check that it is on the chosen list and was sent.";
	}
	if (failure.status === 404 && /requested account could not be found/i.test(message)) {
		return "AWeber's link report (beta) does not know this account. The node sends the UUID of the account chosen: check that the credential belongs to that account.";
	}
	if (failure.status === 404 && /campaign/i.test(message)) return 'AWeber has no such campaign. A broadcast becomes a campaign, with statistics, only once it has been sent.';
	if (failure.status === 404) return 'AWeber has no such resource: check the IDs chosen in the node.';
	if (failure.status === 415) return 'AWeber refused the body encoding of this request.';
	return undefined;
}

/** AWeber's refusal as an n8n error: AWeber's message, type, HTTP status and documentation link, plus a hint. */
export function toAweberError(node: INode, error: unknown, itemIndex?: number, url?: string): NodeApiError {
	if (error instanceof NodeApiError && (error as NodeApiError & { aweberMapped?: boolean }).aweberMapped) return error;
	const failure = readAweberFailure(error);
	const message = failure.message ?? 'AWeber request failed';
	const hint = hintFor(failure, url);
	const details = [
		hint,
		failure.type ? `AWeber error type: ${failure.type}` : undefined,
		failure.status ? `HTTP status: ${failure.status}` : undefined,
		failure.documentationUrl ? `Documentation: ${failure.documentationUrl}` : undefined,
	].filter(Boolean);
	const mapped = new NodeApiError(
		node,
		(isObject(failure.body) ? failure.body : { message, status: failure.status }) as JsonObject,
		{
			message,
			description: details.join('\n'),
			httpCode: failure.status ? String(failure.status) : undefined,
			itemIndex,
		},
	);
	// NodeApiError swaps some common status messages for generic text; AWeber's own words are clearer.
	mapped.message = message;
	Object.assign(mapped, { aweberMapped: true, aweber: failure });
	return mapped;
}

/** n8n's own errors as they are (the request path's, already mapped); anything else as AWeber's error. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return toAweberError(node, error, itemIndex);
}

function parseBody(body: unknown): unknown {
	if (typeof body === 'string' && body.trim().startsWith('{')) {
		try {
			return JSON.parse(body) as unknown;
		} catch {
			return body;
		}
	}
	if (Buffer.isBuffer(body)) return parseBody(body.toString('utf8'));
	return body;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrUndefined(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}
