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
 * The redirect n8n did not follow, read from the error its HTTP helpers threw; undefined for any other error. Every
 * supported n8n throws a NodeApiError with the status as `httpCode`; 2.x keeps the HTTP client's error, with the
 * answer's `response.headers.location`, as its `cause`, 1.x keeps no headers (test/nodes/security-redirects.test.ts,
 * run on every version by the compatibility matrix).
 */
function redirectOf(error: unknown): RedirectAnswer | undefined {
	const layers = causeChain(error);
	const [thrown = {}] = layers;
	const status = Number(thrown.httpCode);
	const location = layers.map((layer) => layer.response?.headers?.location).find((header): header is string => typeof header === 'string' && header !== '');
	return REDIRECT_STATUSES.includes(status) ? { status, location } : undefined;
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
	let lastRedirect: string | undefined;
	for (let hops = 0; hops <= MAX_REDIRECTS; hops++) {
		try {
			return await send(hop);
		} catch (error) {
			const redirect = redirectOf(error);
			// Any other failure goes back to the request path, which reads AWeber's answer from it: n8n's errors as they are.
			if (redirect === undefined) throw error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeApiError(node, error as JsonObject);
			lastRedirect = `AWeber's answer to ${hop.method} ${new URL(hop.url).pathname} was a redirect (HTTP ${redirect.status})`;
			hop = nextHop(node, hop, redirect, lastRedirect, request.apiBaseUrl, request.itemIndex);
		}
	}
	throw new NodeOperationError(node, `Refused to follow more than ${MAX_REDIRECTS} redirects from AWeber`, {
		description: `${lastRedirect}, again. The request was not sent any further. ${ADVICE}`,
		itemIndex: request.itemIndex,
	});
}

const ADVICE = "AWeber's API does not redirect its requests: check the credential's API Base URL and any proxy between n8n and AWeber.";

/** The request a redirect to the credential's API asks for; any other redirect is refused, `named` in the error. */
function nextHop(node: INode, from: RequestHop, redirect: RedirectAnswer, named: string, apiBaseUrl: string, itemIndex?: number): RequestHop {
	const refused = `Refused to follow a redirect (HTTP ${redirect.status}) from AWeber`;
	if (redirect.location === undefined) {
		// n8n 1.x's HTTP errors do not keep the answer's headers: there, every redirect ends here.
		throw new NodeOperationError(node, refused, {
			description: `${named}; n8n did not pass on its target, so it was not followed and the credential was sent nowhere else. ${ADVICE}`,
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
				`The redirect was not followed and the credential was not sent there. ${ADVICE}`,
			itemIndex,
		});
	}
	// As browsers do: 307 and 308 repeat the request as it was; 301, 302 and 303 turn it into a GET (a GET stays one).
	const asGet = redirect.status === 301 || redirect.status === 302 || redirect.status === 303;
	return { url: target, method: asGet ? 'GET' : from.method, keepsBody: from.keepsBody && !asGet, redirected: true };
}
