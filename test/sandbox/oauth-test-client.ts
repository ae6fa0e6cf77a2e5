// A test-side OAuth client for the sandbox: builds PKCE values with node:crypto exactly as AWeber's OAuth rules say (docs/aweber-behaviour.md#oauth-20)
// (independently of oauth.ts), and plays the customer on the sign-in page over plain HTTP, without a browser.
import { createHash, randomBytes } from 'node:crypto';

import { request } from 'undici';

import { SANDBOX_CUSTOMER_LOGIN } from './apps';

/** Seed: random bytes, URL-safe base64, padding removed; 32 bytes give the minimum 43 characters, 96 the maximum 128. */
export function newCodeVerifier(bytes = 32): string {
	return randomBytes(bytes).toString('base64url');
}

/** Seed: SHA-256 of the verifier as raw bytes (not hex), URL-safe base64, padding removed. */
export function codeChallengeOf(verifier: string): string {
	return createHash('sha256').update(verifier).digest('base64url');
}

export function basicAuthorization(clientId: string, clientSecret: string): string {
	return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}

export function unescapeHtml(text: string): string {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

/** What the sign-in form posts besides the login: its hidden fields (the authorization request). */
export function signInFormFields(html: string): Record<string, string> {
	const fields: Record<string, string> = {};
	for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
		fields[match[1]] = unescapeHtml(match[2]);
	}
	return fields;
}

/** The code shown by the out-of-band page (element id="code"), or '' when there is none. */
export function outOfBandCode(html: string): string {
	return unescapeHtml(/<code id="code">([^<]+)<\/code>/.exec(html)?.[1] ?? '');
}

export interface HttpResponse {
	statusCode: number;
	headers: Record<string, string | undefined>;
	body: string;
	json(): Record<string, unknown>;
}

export interface HttpCall {
	method: 'GET' | 'POST';
	/** Absolute, or a path appended to baseUrl. */
	url: string;
	headers?: Record<string, string>;
	payload?: string;
}

/** One HTTP exchange on loopback; redirects are returned, not followed. */
export async function httpCall(baseUrl: string, { method, url, headers, payload }: HttpCall): Promise<HttpResponse> {
	const response = await request(url.startsWith('http') ? url : `${baseUrl}${url}`, { method, headers, body: payload });
	const body = await response.body.text();
	const flatHeaders: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(response.headers)) {
		flatHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return { statusCode: response.statusCode, headers: flatHeaders, body, json: () => JSON.parse(body) };
}

export function formPost(url: string, form: Record<string, string>, headers: Record<string, string> = {}): HttpCall {
	return {
		method: 'POST',
		url,
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
		payload: new URLSearchParams(form).toString(),
	};
}

export function authorizePath(params: Record<string, string | undefined>): string {
	const query = new URLSearchParams(
		Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
	);
	return `/oauth2/authorize?${query}`;
}

/**
 * Opens the authorization page and submits its form as the customer would (seed step 2).
 * Answers the form post's response: a redirect, the out-of-band page, or the page again with an error.
 */
export async function decideAuthorization(
	authBaseUrl: string,
	params: Record<string, string | undefined>,
	decision: 'approve' | 'deny',
	login: { username: string; password: string } = SANDBOX_CUSTOMER_LOGIN,
): Promise<HttpResponse> {
	const signIn = await httpCall(authBaseUrl, { method: 'GET', url: authorizePath(params) });
	if (signIn.statusCode !== 200) {
		throw new Error(`The authorization page answered ${signIn.statusCode}: ${signIn.body.slice(0, 300)}`);
	}
	const action = /<form[^>]* action="([^"]+)"/.exec(signIn.body)?.[1];
	if (action === undefined) throw new Error('The authorization page has no form');
	return await httpCall(
		authBaseUrl,
		formPost(unescapeHtml(action), { ...signInFormFields(signIn.body), ...login, decision }),
	);
}

/** Approves and returns the code from the redirect to redirect_uri. */
export async function approvedCode(authBaseUrl: string, params: Record<string, string | undefined>): Promise<string> {
	const approved = await decideAuthorization(authBaseUrl, params, 'approve');
	const location = approved.headers.location;
	const code = location === undefined ? null : new URL(location).searchParams.get('code');
	if (approved.statusCode !== 302 || code === null) {
		throw new Error(`Approval did not redirect with a code: ${approved.statusCode} ${location ?? approved.body.slice(0, 300)}`);
	}
	return code;
}
