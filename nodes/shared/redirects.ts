import type { IHttpRequestMethods, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { causeChain } from './errors';
import { isUnderApiBase } from './origin';

/*
 * Redirects of requests that carry the credential (docs/architecture.md#redirects). n8n's HTTP layer follows a
 * redirect by itself and, by default, sends the Authorization header on to another origin; every AWeber request
 * therefore says `disableFollowRedirect`, and the package follows a redirect itself only when its target passes
 * the origin check (origin.ts) like any other link. Anything else is refused, naming the redirect.
 */

/** Hops followed for one request: AWeber's API does not redirect, so more than this is a loop. */
export const MAX_REDIRECTS = 3;

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** What every request carrying the credential tells n8n's HTTP layer. */
export const NO_AUTOMATIC_REDIRECTS = { disableFollowRedirect: true } as const;

export interface RedirectAnswer {
	status: number;
	/** The `Location` header, when n8n's error kept it. */
	location?: string;
}

interface ErrorLike {
	httpCode?: unknown;
	status?: unknown;
	statusCode?: unknown;
	headers?: Record<string, unknown>;
	response?: { status?: unknown; headers?: Record<string, unknown> };
}

/** The redirect n8n did not follow, read from the error its HTTP helpers threw; undefined for any other error. */
export function redirectOf(error: unknown): RedirectAnswer | undefined {
	let status: number | undefined;
	let location: string | undefined;
	for (const current of causeChain(error) as ErrorLike[]) {
		const candidate = Number(current.response?.status ?? current.statusCode ?? current.status ?? current.httpCode);
		if (status === undefined && Number.isInteger(candidate)) status = candidate;
		const header = current.response?.headers?.location ?? current.headers?.location;
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

/**
 * Sends a request that carries the credential with n8n's own redirect following off, and follows a redirect
 * only to the credential's API (origin.ts), at most `MAX_REDIRECTS` times; any other redirect is an error naming it.
 */
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
			// Any other failure goes back to the request path as it is: it reads AWeber's answer from it (transport.ts).
			if (redirect === undefined) throw asN8nError(node, error);
			hop = nextHop(node, hop, redirect, request.apiBaseUrl, hops, request.itemIndex);
		}
	}
}

/** n8n's own errors unchanged (transport.ts reads their flags and AWeber's answer); anything else as an API error. */
function asN8nError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeApiError(node, error as JsonObject);
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
				`${named} to ${originOf(target)}, which is not this credential's AWeber API (${apiBaseUrl}). ` +
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
	const asGet = redirect.status === 303 || ((redirect.status === 301 || redirect.status === 302) && from.method !== 'GET' && from.method !== 'HEAD');
	return { url: target, method: asGet ? 'GET' : from.method, keepsBody: from.keepsBody && !asGet, redirected: true };
}

function pathOf(url: string): string {
	try {
		return new URL(url).pathname;
	} catch {
		return url.slice(0, 80);
	}
}

function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return `"${url.slice(0, 80)}"`;
	}
}
