import type { IHttpRequestMethods, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { causeChain } from './errors';
import { describeOrigin, isUnderApiBase } from './origin';

/* n8n would follow a redirect with the credential to any origin: the package follows only those to its API (docs/architecture.md#redirects). */

/** Hops followed for one request: AWeber's API does not redirect, so more than this is a loop. */
export const MAX_REDIRECTS = 3;

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

export const NO_AUTOMATIC_REDIRECTS = { disableFollowRedirect: true } as const;

/** A redirect's status and, when n8n's error kept it, its `Location`. */
interface RedirectAnswer {
	status: number;
	location?: string;
}

/**
 * The redirect n8n did not follow, read from the error its HTTP helpers threw; undefined for any other error. n8n 2.x
 * throws (or wraps as `cause`) the HTTP client's error, with `response.status` and `response.headers.location`; n8n
 * 1.x a NodeApiError with only the status, as `httpCode` (test/nodes/security-redirects.test.ts, on every version).
 */
function redirectOf(error: unknown): RedirectAnswer | undefined {
	let status: number | undefined;
	let location: string | undefined;
	for (const current of causeChain(error)) {
		const candidate = Number(current.response?.status ?? current.httpCode);
		if (status === undefined && Number.isInteger(candidate)) status = candidate;
		const header = current.response?.headers?.location;
		if (location === undefined && typeof header === 'string' && header !== '') location = header;
	}
	return status !== undefined && REDIRECT_STATUSES.includes(status) ? { status, location } : undefined;
}

/** One request to send: the first, or a redirect's target. */
export interface RequestHop {
	url: string;
	method: IHttpRequestMethods;
	/** False once a redirect turned the request into a GET (301/302/303 after a write): no body then. */
	keepsBody: boolean;
	/** Whether this hop follows a redirect (its URL then carries the whole query). */
	redirected: boolean;
}

/** Sends with n8n's redirect following off; follows a redirect only to the credential's API, at most MAX_REDIRECTS times. */
export async function sendFollowingApiRedirects<T>(
	node: INode,
	request: { url: string; method: string; apiBaseUrl: string; itemIndex?: number },
	send: (hop: RequestHop) => Promise<T>,
): Promise<T> {
	let hop: RequestHop = { url: request.url, method: request.method.toUpperCase() as IHttpRequestMethods, keepsBody: true, redirected: false };
	for (let hops = 0; ; hops++) {
		try {
			return await send(hop);
		} catch (error) {
			const redirect = redirectOf(error);
			// n8n's own errors unchanged (the request path reads AWeber's answer from them); anything else as an API error.
			if (redirect === undefined) throw error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeApiError(node, error as JsonObject);
			hop = nextHop(node, hop, redirect, request.apiBaseUrl, hops, request.itemIndex);
		}
	}
}

function nextHop(node: INode, from: RequestHop, redirect: RedirectAnswer, apiBaseUrl: string, hops: number, itemIndex?: number): RequestHop {
	const refused = `Refused to follow a redirect (HTTP ${redirect.status}) from AWeber`;
	const named = `AWeber's answer to ${from.method} ${pathOf(from.url)} was a redirect (HTTP ${redirect.status})`;
	const advice = "AWeber's API does not redirect its requests: check the credential's API Base URL and any proxy between n8n and AWeber.";
	if (redirect.location === undefined) {
		// n8n 1.x's HTTP errors do not keep the answer's headers: there, every redirect ends here.
		throw new NodeOperationError(node, refused, {
			description: `${named}; n8n did not pass on its target, so it was not followed and the credential was sent nowhere else. ${advice}`,
			itemIndex,
		});
	}
	let target: string;
	try {
		target = new URL(redirect.location, from.url).toString();
	} catch {
		target = redirect.location;
	}
	if (!isUnderApiBase(target, apiBaseUrl)) {
		throw new NodeOperationError(node, refused, {
			description:
				`${named} to ${describeOrigin(target)}, which is not this credential's AWeber API (${apiBaseUrl}). ` +
				`The redirect was not followed and the credential was not sent there. ${advice}`,
			itemIndex,
		});
	}
	if (hops >= MAX_REDIRECTS) {
		throw new NodeOperationError(node, `Refused to follow more than ${MAX_REDIRECTS} redirects from AWeber`, {
			description: `${named}, again. The request was not sent any further. ${advice}`,
			itemIndex,
		});
	}
	// As browsers do: 307 and 308 repeat the request as it was; 303, and 301/302 after a write, turn it into a GET.
	const asGet = redirect.status === 303 || ((redirect.status === 301 || redirect.status === 302) && from.method !== 'GET');
	return { url: target, method: asGet ? 'GET' : from.method, keepsBody: from.keepsBody && !asGet, redirected: true };
}

function pathOf(url: string): string {
	try {
		return new URL(url).pathname;
	} catch {
		return url.slice(0, 80);
	}
}
