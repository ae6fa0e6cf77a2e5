// The sandbox's OAuth 2.0 server: AWeber's OAuth 2.0 rules (docs/aweber-behaviour.md#oauth-20), table by table.
// Authorization endpoint (standard flow step 1 and 2, PKCE authorization URL), token endpoint
// (step 3 exchange, step 4 refresh, PKCE token request), and revocation (RFC 7009, AWeber publishes the path only).
import { createHash, timingSafeEqual } from 'node:crypto';

import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { OOB_REDIRECT_URI, SANDBOX_CUSTOMER_LOGIN, findApp, isRegisteredRedirectUri } from './apps';
import type { RegisteredApp } from './apps';
import type { SandboxClock } from './clock';
import type { TokenStore } from './tokens';
import type { SandboxApps } from './types';

export interface OAuthContext {
	clock: SandboxClock;
	tokens: TokenStore;
	apps: SandboxApps;
	/** The customer account that signs in on the authorization screen. */
	account: { id: number; uuid: string; company: string };
}

// ---------------------------------------------------------------------------------------------------------------
// Seed tables: scopes, PKCE verifier and challenge.

/** Seed "Scopes" table: what each scope grants, shown on the approval screen. */
export const SCOPE_GRANTS: Readonly<Record<string, string>> = {
	'account.read': 'Account information and integrations',
	'landing-page.read': 'Landing pages',
	'list.read': 'Lists, custom fields, tags, sign-up forms, split tests',
	'list.write': 'Create, edit and delete custom fields',
	'subscriber.read': 'Subscribers and their activity, including personal details',
	'subscriber.write': 'Create, edit, delete, search and move subscribers',
	'subscriber.read-extended':
		'Obsolete; formerly gave access to subscriber personal details, now covered by subscriber.read',
	'email.read': 'Email activity of broadcasts and follow-ups, campaigns, statistics',
	'email.write': 'Create, update, delete, cancel and schedule broadcasts',
};

/** Seed "Limits": code verifier length 43 to 128 characters. */
const VERIFIER_LENGTH = { min: 43, max: 128 };

/** The challenge is URL-safe base64 without padding; a + or / (plain base64) fails AWeber's PKCE check. */
const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]+$/;

/**
 * The verifier: AWeber's samples make it URL-safe base64, whose characters are a subset of RFC 7636's unreserved
 * set. Clients such as n8n draw verifiers from the whole set (with . and ~), so those pass; + and / fail.
 */
const VERIFIER_CHARACTERS = /^[A-Za-z0-9._~-]+$/;

/** Seed "Limits": S256 is the only accepted code challenge method. */
const CODE_CHALLENGE_METHOD = 'S256';

/** Seed "Code verifier and challenge": SHA-256 of the verifier as raw bytes, URL-safe base64, no padding. */
export function codeChallengeFor(codeVerifier: string): string {
	return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
}

/** AWeber's PKCE check at the token endpoint; any failure is answered invalid_grant "invalid code". */
export function verifierMatchesChallenge(codeVerifier: string, codeChallenge: string): boolean {
	if (codeVerifier.length < VERIFIER_LENGTH.min || codeVerifier.length > VERIFIER_LENGTH.max) return false;
	if (!VERIFIER_CHARACTERS.test(codeVerifier) || !URL_SAFE_BASE64.test(codeChallenge)) return false;
	const expected = Buffer.from(codeChallengeFor(codeVerifier));
	const received = Buffer.from(codeChallenge);
	return expected.length === received.length && timingSafeEqual(expected, received);
}

// ---------------------------------------------------------------------------------------------------------------
// Parameters: RFC 6749 3.1/3.2, a parameter must not be sent twice.

type RawParams = Record<string, unknown>;

class RepeatedParameterError extends Error {
	constructor(readonly parameter: string) {
		super(`The parameter ${parameter} must not be sent more than once.`);
	}
}

function param(params: RawParams | undefined, name: string): string | undefined {
	const value = params?.[name];
	if (Array.isArray(value)) throw new RepeatedParameterError(name);
	return typeof value === 'string' ? value : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Authorization endpoint.

/** Where the sign-in form posts the customer's decision. */
const DECISION_PATH = '/oauth2/authorize/decision';

interface AuthorizationRequest {
	app: RegisteredApp;
	redirectUri: string;
	scopes: string[];
	state?: string;
	codeChallenge?: string;
	codeChallengeMethod?: string;
}

/** Outcome of checking an authorization request, in the order RFC 6749 4.1.2.1 asks for. */
type AuthorizationCheck =
	| { ok: true; request: AuthorizationRequest }
	/** client_id or redirect_uri cannot be trusted: tell the user, never redirect. */
	| { ok: false; redirect: false; title: string; message: string }
	/** Everything else goes back to the (registered) redirect_uri as error and error_description. */
	| {
			ok: false;
			redirect: true;
			redirectUri: string;
			state?: string;
			error: string;
			description: string;
			title: string;
	  };

function checkAuthorizationRequest(apps: SandboxApps, params: RawParams | undefined): AuthorizationCheck {
	let clientId: string | undefined;
	let redirectUri: string | undefined;
	try {
		clientId = param(params, 'client_id');
		redirectUri = param(params, 'redirect_uri');
	} catch (error) {
		return { ok: false, redirect: false, title: 'Invalid request', message: (error as Error).message };
	}
	const app = findApp(apps, clientId);
	if (app === undefined) {
		return { ok: false, redirect: false, title: 'Invalid client', message: 'Unknown or missing client_id.' };
	}
	if (redirectUri === undefined || !isRegisteredRedirectUri(app, redirectUri)) {
		return {
			ok: false,
			redirect: false,
			title: 'Invalid redirect URI',
			message: 'The redirect_uri must match one registered for the application exactly.',
		};
	}

	let state: string | undefined;
	const fail = (error: string, description: string, title = 'Authorization failed'): AuthorizationCheck => ({
		ok: false,
		redirect: true,
		redirectUri: redirectUri as string,
		state,
		error,
		description,
		title,
	});
	try {
		state = param(params, 'state');
		const responseType = param(params, 'response_type');
		const scope = param(params, 'scope');
		const codeChallenge = param(params, 'code_challenge');
		const codeChallengeMethod = param(params, 'code_challenge_method');

		if (responseType === undefined) return fail('invalid_request', 'Missing response_type parameter.');
		if (responseType !== 'code') {
			return fail('unsupported_response_type', 'response_type must be the literal code.');
		}

		const scopes = (scope ?? '').split(' ').filter((name) => name !== '');
		if (scopes.length === 0) return fail('invalid_request', 'Missing scope parameter.');
		const unknownScopes = scopes.filter((name) => !(name in SCOPE_GRANTS));
		if (unknownScopes.length > 0) return fail('invalid_scope', `Unknown scope: ${unknownScopes.join(' ')}`);

		const usesPkce = codeChallenge !== undefined || codeChallengeMethod !== undefined;
		if (app.kind === 'confidential' && usesPkce) {
			return fail(
				'invalid_request',
				'code_challenge and code_challenge_method are disallowed for confidential clients',
				'Confidential Client MUST NOT Use PKCE',
			);
		}
		if (app.kind === 'public') {
			if (codeChallenge === undefined || codeChallenge === '') {
				return fail('invalid_request', 'code_challenge is required for public client', 'Public Client MUST Use PKCE');
			}
			if (codeChallengeMethod !== CODE_CHALLENGE_METHOD) {
				return fail('invalid_request', 'code_challenge_method must be S256 (the only accepted method).');
			}
		}
		// A challenge in plain base64 (+ or /) is accepted here and fails at the token endpoint, as AWeber's documented errors say.
		return {
			ok: true,
			request: { app, redirectUri, scopes: [...new Set(scopes)], state, codeChallenge, codeChallengeMethod },
		};
	} catch (error) {
		return fail('invalid_request', (error as Error).message);
	}
}

function redirectWith(redirectUri: string, query: Record<string, string | undefined>): string {
	const url = new URL(redirectUri);
	for (const [name, value] of Object.entries(query)) {
		if (value !== undefined) url.searchParams.append(name, value);
	}
	return url.toString();
}

function escapeHtml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

function page(title: string, content: string): string {
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)} · AWeber Sandbox</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; color: #1d2330; }
label { display: block; margin-top: .8rem; }
input[type=text], input[type=password] { width: 100%; padding: .4rem; box-sizing: border-box; }
button { margin: 1rem .5rem 0 0; padding: .5rem 1.2rem; }
#error { color: #b00020; }
code#code { display: block; padding: .8rem; background: #eef1f6; font-size: 1.1rem; word-break: break-all; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${content}
</body>
</html>
`;
}

function hiddenFields(request: AuthorizationRequest): string {
	const fields: Record<string, string | undefined> = {
		response_type: 'code',
		client_id: request.app.clientId,
		redirect_uri: request.redirectUri,
		scope: request.scopes.join(' '),
		state: request.state,
		code_challenge: request.codeChallenge,
		code_challenge_method: request.codeChallengeMethod,
	};
	return Object.entries(fields)
		.filter((entry): entry is [string, string] => entry[1] !== undefined)
		.map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
		.join('\n');
}

/** Seed step 2: the customer signs in with the customer-account credentials and approves (ids for headless browsers). */
function signInPage(ctx: OAuthContext, request: AuthorizationRequest, error?: string): string {
	const scopes = request.scopes
		.map(
			(name) =>
				`<li data-scope="${escapeHtml(name)}"><code>${escapeHtml(name)}</code>: ${escapeHtml(SCOPE_GRANTS[name])}</li>`,
		)
		.join('\n');
	return page(
		'Sign in to authorize',
		`<p>The application <strong id="client-id">${escapeHtml(request.app.clientId)}</strong> asks for access to the account
<strong id="company">${escapeHtml(ctx.account.company)}</strong>:</p>
<ul id="scopes">
${scopes}
</ul>
${error === undefined ? '' : `<p id="error" role="alert">${escapeHtml(error)}</p>`}
<form id="authorize" method="post" action="${DECISION_PATH}">
${hiddenFields(request)}
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password">
<button type="submit" id="approve" name="decision" value="approve">Allow access</button>
<button type="submit" id="deny" name="decision" value="deny">Deny</button>
</form>
<p><small>Sandbox customer account: user <code>${SANDBOX_CUSTOMER_LOGIN.username}</code>,
password <code>${SANDBOX_CUSTOMER_LOGIN.password}</code>.</small></p>`,
	);
}

/** Out-of-band redirect: the code is displayed for the user to copy into the application. */
function outOfBandCodePage(code: string, state: string | undefined): string {
	const stateLine =
		state === undefined ? '' : `<p>State: <code id="state">${escapeHtml(state)}</code></p>`;
	return page(
		'Authorization code',
		`<p>Copy this code into the application:</p>
<code id="code">${escapeHtml(code)}</code>
${stateLine}`,
	);
}

function errorPage(title: string, message: string, error?: string): string {
	const errorCode = error === undefined ? '' : `<p>Error: <code id="error-code">${escapeHtml(error)}</code></p>`;
	return page(title, `<p id="error" role="alert">${escapeHtml(message)}</p>\n${errorCode}`);
}

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
	return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
}

function answerFailedCheck(reply: FastifyReply, check: Extract<AuthorizationCheck, { ok: false }>): FastifyReply {
	if (!check.redirect) return sendHtml(reply, 400, errorPage(check.title, check.message));
	if (check.redirectUri === OOB_REDIRECT_URI) {
		return sendHtml(reply, 400, errorPage(check.title, check.description, check.error));
	}
	return reply.redirect(
		redirectWith(check.redirectUri, {
			error: check.error,
			error_description: check.description,
			state: check.state,
		}),
		302,
	);
}

function registerAuthorizationEndpoint(app: FastifyInstance, ctx: OAuthContext): void {
	app.get('/oauth2/authorize', async (request, reply) => {
		const check = checkAuthorizationRequest(ctx.apps, request.query as RawParams);
		if (!check.ok) return answerFailedCheck(reply, check);
		return sendHtml(reply, 200, signInPage(ctx, check.request));
	});

	// The sign-in form posts the authorization request back in hidden fields, so it is checked again here.
	app.post(DECISION_PATH, async (request, reply) => {
		const body = request.body as RawParams | undefined;
		const check = checkAuthorizationRequest(ctx.apps, body);
		if (!check.ok) return answerFailedCheck(reply, check);
		const authorization = check.request;
		const oob = authorization.redirectUri === OOB_REDIRECT_URI;

		if (param(body, 'decision') !== 'approve') {
			const description = 'The customer denied access.';
			if (oob) return sendHtml(reply, 200, errorPage('Access denied', description, 'access_denied'));
			return reply.redirect(
				redirectWith(authorization.redirectUri, {
					error: 'access_denied',
					error_description: description,
					state: authorization.state,
				}),
				302,
			);
		}

		if (
			param(body, 'username') !== SANDBOX_CUSTOMER_LOGIN.username ||
			param(body, 'password') !== SANDBOX_CUSTOMER_LOGIN.password
		) {
			return sendHtml(reply, 401, signInPage(ctx, authorization, 'Wrong username or password.'));
		}

		const code = ctx.tokens.issueCode({
			accountId: ctx.account.id,
			scopes: authorization.scopes,
			clientId: authorization.app.clientId,
			redirectUri: authorization.redirectUri,
			codeChallenge: authorization.codeChallenge,
		});
		if (oob) return sendHtml(reply, 200, outOfBandCodePage(code, authorization.state));
		return reply.redirect(redirectWith(authorization.redirectUri, { code, state: authorization.state }), 302);
	});
}

// ---------------------------------------------------------------------------------------------------------------
// Token and revocation endpoints: RFC 6749 5.2 error bodies, never cached.

class OAuthError extends Error {
	constructor(
		readonly status: 400 | 401,
		readonly error: string,
		readonly description: string,
	) {
		super(description);
	}
}

const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
const invalidClient = (description: string) => new OAuthError(401, 'invalid_client', description);
const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);

/** AWeber's documented token errors words both code errors "invalid code". */
const INVALID_CODE = 'invalid code';

function noStore(reply: FastifyReply): FastifyReply {
	return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
	noStore(reply).code(error.status);
	if (error.status === 401) reply.header('WWW-Authenticate', 'Basic realm="AWeber Sandbox"');
	return reply.send({ error: error.error, error_description: error.description });
}

function formParams(request: FastifyRequest): RawParams {
	const contentType = request.headers['content-type'] ?? '';
	if (!/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
		throw invalidRequest('The request body must be application/x-www-form-urlencoded.');
	}
	return (request.body ?? {}) as RawParams;
}

function requiredParam(params: RawParams, name: string): string {
	const value = param(params, name);
	if (value === undefined || value === '') throw invalidRequest(`Missing ${name} parameter.`);
	return value;
}

function decodeFormComponent(text: string): string {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return text;
	}
}

interface BasicCredentials {
	clientId: string;
	/** As sent, and form-decoded as RFC 6749 2.3.1 asks; clients differ in whether they encode. */
	secrets: string[];
}

function basicCredentials(request: FastifyRequest): BasicCredentials | undefined {
	const header = request.headers.authorization;
	if (header === undefined || !/^basic /i.test(header)) return undefined;
	const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0) throw invalidClient('Malformed HTTP Basic credentials.');
	const rawSecret = decoded.slice(colon + 1);
	return {
		clientId: decodeFormComponent(decoded.slice(0, colon)),
		secrets: [...new Set([rawSecret, decodeFormComponent(rawSecret)])],
	};
}

function secretMatches(expected: string, candidate: string): boolean {
	const a = Buffer.from(expected);
	const b = Buffer.from(candidate);
	return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Seed: confidential clients use HTTP Basic (preferred) or client_id/client_secret parameters;
 * public clients send client_id in the body, with no secret and no Basic authentication.
 */
function authenticateClient(apps: SandboxApps, request: FastifyRequest, params: RawParams): RegisteredApp {
	const basic = basicCredentials(request);
	const bodyClientId = param(params, 'client_id');
	const bodySecret = param(params, 'client_secret');
	if (basic !== undefined && bodySecret !== undefined) {
		throw invalidRequest('Use one client authentication method: HTTP Basic or client_secret, not both.');
	}
	if (basic !== undefined && bodyClientId !== undefined && bodyClientId !== basic.clientId) {
		throw invalidRequest('client_id differs from the HTTP Basic user name.');
	}
	const clientId = basic?.clientId ?? bodyClientId;
	if (clientId === undefined || clientId === '') throw invalidClient('Client authentication failed: no client_id.');
	const app = findApp(apps, clientId);
	if (app === undefined) throw invalidClient('Client authentication failed: unknown client.');

	if (app.kind === 'public') {
		if (basic !== undefined) {
			throw invalidClient('A public client sends client_id in the body, without HTTP Basic authentication.');
		}
		if (bodySecret !== undefined) throw invalidClient('A public client has no client secret.');
		return app;
	}
	const secrets = basic?.secrets ?? (bodySecret === undefined ? [] : [bodySecret]);
	if (secrets.length === 0) throw invalidClient('Client authentication failed: no client secret.');
	if (!secrets.some((secret) => secretMatches(app.clientSecret as string, secret))) {
		throw invalidClient('Client authentication failed.');
	}
	return app;
}

function exchangeAuthorizationCode(ctx: OAuthContext, app: RegisteredApp, params: RawParams) {
	const code = requiredParam(params, 'code');
	const redirectUri = requiredParam(params, 'redirect_uri');
	const codeVerifier = param(params, 'code_verifier');

	const redemption = ctx.tokens.redeemCode(code, app.clientId);
	// Seed Errors: a reused or stale code, or another client id than the authorization request's.
	if (!redemption.ok) throw invalidRequest(INVALID_CODE);
	const { grant } = redemption;
	if (grant.redirectUri !== redirectUri) {
		throw invalidGrant('redirect_uri is not identical to the one of the authorization request.');
	}
	if (grant.codeChallenge === undefined) {
		if (codeVerifier !== undefined) throw invalidRequest('code_verifier is disallowed for confidential clients');
	} else {
		if (codeVerifier === undefined || codeVerifier === '') throw invalidRequest('Missing code_verifier parameter.');
		// Seed Errors: verifier does not match the challenge, or either holds + or / instead of URL-safe characters.
		if (!verifierMatchesChallenge(codeVerifier, grant.codeChallenge)) throw invalidGrant(INVALID_CODE);
	}
	ctx.tokens.consumeCode(code);
	return ctx.tokens.issue(grant);
}

function refreshAccessToken(ctx: OAuthContext, app: RegisteredApp, params: RawParams) {
	const refreshToken = requiredParam(params, 'refresh_token');
	const refreshed = ctx.tokens.refresh(refreshToken, app.clientId);
	if (refreshed.ok) return refreshed.record;
	if (refreshed.reason === 'client_mismatch') throw invalidGrant('The refresh token was issued to another client.');
	throw invalidGrant('The refresh token is invalid, revoked or already used.');
}

const GRANTS = {
	authorization_code: exchangeAuthorizationCode,
	refresh_token: refreshAccessToken,
} as const;

function registerTokenEndpoints(app: FastifyInstance, ctx: OAuthContext): void {
	app.post('/oauth2/token', async (request, reply) => {
		try {
			const params = formParams(request);
			const grantType = requiredParam(params, 'grant_type');
			if (!Object.hasOwn(GRANTS, grantType)) {
				throw new OAuthError(400, 'unsupported_grant_type', `Unsupported grant_type: ${grantType}`);
			}
			const client = authenticateClient(ctx.apps, request, params);
			const record = GRANTS[grantType as keyof typeof GRANTS](ctx, client, params);
			return noStore(reply).code(200).send(record);
		} catch (error) {
			if (error instanceof RepeatedParameterError) return sendOAuthError(reply, invalidRequest(error.message));
			if (error instanceof OAuthError) return sendOAuthError(reply, error);
			throw error;
		}
	});

	app.post('/oauth2/revoke', async (request, reply) => {
		try {
			const params = formParams(request);
			const token = requiredParam(params, 'token');
			// token_type_hint is optional and only a hint (RFC 7009 2.1): both kinds are looked up.
			param(params, 'token_type_hint');
			const client = authenticateClient(ctx.apps, request, params);
			if (ctx.tokens.revoke(token, client.clientId) === 'client_mismatch') {
				throw invalidRequest('The token was issued to another client.');
			}
			// An unknown or already revoked token is not an error (RFC 7009 2.2).
			return noStore(reply).code(200).send();
		} catch (error) {
			if (error instanceof RepeatedParameterError) return sendOAuthError(reply, invalidRequest(error.message));
			if (error instanceof OAuthError) return sendOAuthError(reply, error);
			throw error;
		}
	});
}

/**
 * Mounts /oauth2/authorize, /oauth2/token and /oauth2/revoke. They live in their own plugin scope so that
 * bodies of any content type reach the handlers, which answer OAuth errors instead of Fastify's 415.
 */
export function registerOAuthRoutes(app: FastifyInstance, ctx: OAuthContext): void {
	app.register(async (scope) => {
		if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) await scope.register(formbody);
		if (!scope.hasContentTypeParser('*')) {
			scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
		}
		scope.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
			// Body parsing failures and the like, still in RFC 6749's error shape.
			const status = error.statusCode ?? 500;
			const code = status >= 500 ? 'server_error' : 'invalid_request';
			return noStore(reply).code(status).send({ error: code, error_description: error.message });
		});
		registerAuthorizationEndpoint(scope, ctx);
		registerTokenEndpoints(scope, ctx);
	});
}
