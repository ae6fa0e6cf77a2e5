// The sandbox's OAuth 2.0 server against AWeber's OAuth 2.0 rules (docs/aweber-behaviour.md#oauth-20), rule by rule.
// PKCE values are built with node:crypto exactly as AWeber's OAuth rules say (docs/aweber-behaviour.md#oauth-20), independent of oauth.ts.
import { createHash, randomBytes } from 'node:crypto';

import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';

import { DEFAULT_REDIRECT_URIS, OOB_REDIRECT_URI, REDIRECT_URIS_ENV, defaultApps } from './apps';
import { SandboxClock } from './clock';
import { SCOPE_GRANTS, registerOAuthRoutes } from './oauth';
import {
	authorizePath,
	basicAuthorization,
	codeChallengeOf as challengeOf,
	decideAuthorization,
	formPost,
	httpCall,
	newCodeVerifier as newVerifier,
	outOfBandCode,
} from './oauth-test-client';
import type { HttpCall, HttpResponse } from './oauth-test-client';
import { TokenStore } from './tokens';
import type { TokenStoreOptions } from './tokens';
import { ALL_SCOPES } from './types';
import type { SandboxApps, TokenRecord } from './types';

const N8N_CALLBACK = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';
const ACCOUNT = { id: 1234567, uuid: '3f1c9a0e-0000-4000-8000-000000000001', company: 'Sandbox Outfitters' };

function queryOf(location: string | undefined): URLSearchParams {
	expect(location).toBeDefined();
	return new URL(location as string).searchParams;
}

interface Harness {
	app: FastifyInstance;
	clock: SandboxClock;
	tokens: TokenStore;
	apps: SandboxApps;
	baseUrl: string;
	/** Real HTTP on loopback: Fastify's inject needs an ESM-only cookie package that jest cannot load. */
	call(options: HttpCall): Promise<HttpResponse>;
}

async function startOAuthServer(tokenOptions: Partial<TokenStoreOptions> = {}): Promise<Harness> {
	const clock = new SandboxClock(1);
	const tokens = new TokenStore(clock, { lifetimeSeconds: 3600, rotateRefreshTokens: true, ...tokenOptions });
	const apps = defaultApps([]);
	const app = Fastify();
	registerOAuthRoutes(app, { clock, tokens, apps, account: ACCOUNT });
	const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
	const call = (options: HttpCall) => httpCall(baseUrl, options);
	return { app, clock, tokens, apps, baseUrl, call };
}

describe('sandbox OAuth 2.0 server', () => {
	let harness: Harness;
	let confidential: SandboxApps['confidential'];
	let publicApp: SandboxApps['public'];

	beforeEach(async () => {
		harness = await startOAuthServer();
		confidential = harness.apps.confidential;
		publicApp = harness.apps.public;
	});

	afterEach(async () => {
		await harness.app.close();
	});

	function authorize(params: Record<string, string | undefined>) {
		return harness.call({ method: 'GET', url: authorizePath(params) });
	}

	function confidentialAuthorization(extra: Record<string, string | undefined> = {}) {
		return {
			response_type: 'code',
			client_id: confidential.clientId,
			redirect_uri: N8N_CALLBACK,
			scope: 'account.read list.read subscriber.read',
			state: 'state-123',
			...extra,
		};
	}

	function publicAuthorization(challenge: string, extra: Record<string, string | undefined> = {}) {
		return {
			response_type: 'code',
			client_id: publicApp.clientId,
			redirect_uri: N8N_CALLBACK,
			scope: 'account.read subscriber.read',
			state: 'state-456',
			code_challenge: challenge,
			code_challenge_method: 'S256',
			...extra,
		};
	}

	function decide(
		params: Record<string, string | undefined>,
		decision: 'approve' | 'deny',
		login?: { username: string; password: string },
	): Promise<HttpResponse> {
		return decideAuthorization(harness.baseUrl, params, decision, login);
	}

	async function codeFor(params: Record<string, string | undefined>): Promise<string> {
		const approved = await decide(params, 'approve');
		expect(approved.statusCode).toBe(302);
		return queryOf(approved.headers.location).get('code') as string;
	}

	function token(form: Record<string, string>, headers: Record<string, string> = {}) {
		return harness.call(formPost('/oauth2/token', form, headers));
	}

	function confidentialBasic() {
		return { authorization: basicAuthorization(confidential.clientId, confidential.clientSecret) };
	}

	function exchangeConfidentialCode(code: string) {
		return token({ grant_type: 'authorization_code', code, redirect_uri: N8N_CALLBACK }, confidentialBasic());
	}

	function exchangePublicCode(code: string, verifier: string) {
		return token({
			grant_type: 'authorization_code',
			code,
			redirect_uri: N8N_CALLBACK,
			client_id: publicApp.clientId,
			code_verifier: verifier,
		});
	}

	function expectOAuthError(response: HttpResponse, status: number, error: string, description?: string) {
		expect(response.statusCode).toBe(status);
		const body = response.json();
		expect(body.error).toBe(error);
		if (description !== undefined) expect(body.error_description).toBe(description);
	}

	function expectTokenRecord(response: HttpResponse): TokenRecord {
		expect(response.statusCode).toBe(200);
		expect(response.headers['cache-control']).toBe('no-store');
		expect(response.headers.pragma).toBe('no-cache');
		const record = response.json() as unknown as TokenRecord;
		expect(record).toEqual({
			access_token: expect.any(String),
			refresh_token: expect.any(String),
			token_type: 'bearer',
			expires_in: 3600,
			scope: expect.any(String),
		});
		return record;
	}

	describe('registered applications', () => {
		it('registers a confidential app with a secret and a public app without, both with the default callbacks', () => {
			const apps = defaultApps([]);
			expect(apps.confidential.clientSecret).toEqual(expect.any(String));
			expect(apps.public).not.toHaveProperty('clientSecret');
			for (const app of [apps.confidential, apps.public]) {
				expect(app.redirectUris).toEqual([...DEFAULT_REDIRECT_URIS]);
				expect(app.redirectUris).toContain(OOB_REDIRECT_URI);
				expect(app.redirectUris).toContain('http://localhost:5678/rest/oauth2-credential/callback');
			}
		});

		it(`adds the comma-separated redirect URIs of ${REDIRECT_URIS_ENV} to both apps`, () => {
			const previous = process.env[REDIRECT_URIS_ENV];
			process.env[REDIRECT_URIS_ENV] = 'http://127.0.0.1:9000/cb, http://127.0.0.1:9001/cb';
			try {
				const apps = defaultApps();
				expect(apps.confidential.redirectUris).toContain('http://127.0.0.1:9001/cb');
				expect(apps.public.redirectUris).toContain('http://127.0.0.1:9000/cb');
			} finally {
				if (previous === undefined) delete process.env[REDIRECT_URIS_ENV];
				else process.env[REDIRECT_URIS_ENV] = previous;
			}
		});

		it('accepts a redirect URI pushed onto an app at run time', async () => {
			confidential.redirectUris.push('http://127.0.0.1:7777/callback');
			const code = await codeFor(confidentialAuthorization({ redirect_uri: 'http://127.0.0.1:7777/callback' }));
			const response = await token(
				{ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:7777/callback' },
				confidentialBasic(),
			);
			expectTokenRecord(response);
		});
	});

	describe('authorization endpoint', () => {
		it('shows a sign-in page a browser can fill: username, password, approve and deny, and the scopes asked', async () => {
			const page = await authorize(confidentialAuthorization());
			expect(page.statusCode).toBe(200);
			expect(page.headers['content-type']).toMatch(/^text\/html/);
			for (const element of ['name="username"', 'name="password"', 'id="approve"', 'id="deny"']) {
				expect(page.body).toContain(element);
			}
			expect(page.body).toContain('Sandbox Outfitters');
			expect(page.body).toContain('data-scope="subscriber.read"');
		});

		it('redirects to redirect_uri with code and the unchanged state on approval', async () => {
			const approved = await decide(confidentialAuthorization({ state: 'a b/c?d=e&f' }), 'approve');
			expect(approved.statusCode).toBe(302);
			const query = queryOf(approved.headers.location);
			expect(approved.headers.location).toMatch(new RegExp(`^${N8N_CALLBACK}\\?`));
			expect(query.get('code')).toEqual(expect.any(String));
			expect(query.get('state')).toBe('a b/c?d=e&f');
		});

		it('sends no state back when none was sent', async () => {
			const approved = await decide(confidentialAuthorization({ state: undefined }), 'approve');
			const query = queryOf(approved.headers.location);
			expect(query.get('code')).toEqual(expect.any(String));
			expect(query.has('state')).toBe(false);
		});

		it('redirects with error=access_denied and the state when the customer denies', async () => {
			const denied = await decide(confidentialAuthorization(), 'deny');
			expect(denied.statusCode).toBe(302);
			const query = queryOf(denied.headers.location);
			expect(query.get('error')).toBe('access_denied');
			expect(query.get('state')).toBe('state-123');
			expect(query.has('code')).toBe(false);
		});

		it('shows the sign-in page again with an error for a wrong password, and issues no code', async () => {
			const refused = await decide(confidentialAuthorization(), 'approve', { username: 'sandbox', password: 'nope' });
			expect(refused.statusCode).toBe(401);
			expect(refused.headers.location).toBeUndefined();
			expect(refused.body).toContain('id="error"');
			expect(refused.body).toContain('id="approve"');
		});

		it('rejects a redirect_uri that is not exactly a registered one, without redirecting', async () => {
			for (const redirectUri of [
				`${N8N_CALLBACK}/`,
				`${N8N_CALLBACK}?x=1`,
				'http://127.0.0.1:5679/rest/oauth2-credential/callback',
				'https://evil.example/callback',
				undefined,
			]) {
				const page = await authorize(confidentialAuthorization({ redirect_uri: redirectUri }));
				expect(page.statusCode).toBe(400);
				expect(page.headers.location).toBeUndefined();
				expect(page.body).toContain('Invalid redirect URI');
			}
		});

		it('rejects an unknown or missing client_id on a page', async () => {
			for (const clientId of ['someone-else', undefined]) {
				const page = await authorize(confidentialAuthorization({ client_id: clientId }));
				expect(page.statusCode).toBe(400);
				expect(page.headers.location).toBeUndefined();
			}
		});

		it('requires response_type to be the literal code', async () => {
			const wrong = await authorize(confidentialAuthorization({ response_type: 'token' }));
			expect(queryOf(wrong.headers.location).get('error')).toBe('unsupported_response_type');
			const missing = await authorize(confidentialAuthorization({ response_type: undefined }));
			expect(queryOf(missing.headers.location).get('error')).toBe('invalid_request');
			expect(queryOf(missing.headers.location).get('state')).toBe('state-123');
		});

		it('knows every scope of the resource API, plus the obsolete subscriber.read-extended', () => {
			expect(Object.keys(SCOPE_GRANTS).sort()).toEqual([...ALL_SCOPES, 'subscriber.read-extended'].sort());
		});

		it('takes space-separated scope names, accepts the obsolete subscriber.read-extended, refuses unknown ones', async () => {
			const allScopes =
				'account.read landing-page.read list.read list.write subscriber.read subscriber.write ' +
				'subscriber.read-extended email.read email.write';
			const code = await codeFor(confidentialAuthorization({ scope: allScopes }));
			const record = expectTokenRecord(await exchangeConfidentialCode(code));
			expect(record.scope?.split(' ').sort()).toEqual(allScopes.split(' ').sort());

			const unknown = await authorize(confidentialAuthorization({ scope: 'account.read subscribers.read' }));
			expect(unknown.statusCode).toBe(302);
			expect(queryOf(unknown.headers.location).get('error')).toBe('invalid_scope');

			const missing = await authorize(confidentialAuthorization({ scope: undefined }));
			expect(queryOf(missing.headers.location).get('error')).toBe('invalid_request');
		});

		it('shows the code on a page for the out-of-band redirect, and the code works', async () => {
			const verifier = newVerifier();
			const params = publicAuthorization(challengeOf(verifier), { redirect_uri: OOB_REDIRECT_URI });
			const shown = await decide(params, 'approve');
			expect(shown.statusCode).toBe(200);
			expect(shown.headers.location).toBeUndefined();
			const code = outOfBandCode(shown.body);
			expect(code).not.toBe('');
			const response = await token({
				grant_type: 'authorization_code',
				code,
				redirect_uri: OOB_REDIRECT_URI,
				client_id: publicApp.clientId,
				code_verifier: verifier,
			});
			expectTokenRecord(response);
		});

		it('refuses a public app without PKCE (AWeber: "Public Client MUST Use PKCE")', async () => {
			const refused = await authorize(publicAuthorization('', { code_challenge: undefined }));
			const query = queryOf(refused.headers.location);
			expect(query.get('error')).toBe('invalid_request');
			expect(query.get('error_description')).toBe('code_challenge is required for public client');
			expect(query.get('state')).toBe('state-456');

			const oobPage = await authorize(
				publicAuthorization('', { code_challenge: undefined, redirect_uri: OOB_REDIRECT_URI }),
			);
			expect(oobPage.statusCode).toBe(400);
			expect(oobPage.body).toContain('Public Client MUST Use PKCE');
		});

		it('refuses PKCE from a confidential app (AWeber: "Confidential Client MUST NOT Use PKCE")', async () => {
			const refused = await authorize(
				confidentialAuthorization({ code_challenge: challengeOf(newVerifier()), code_challenge_method: 'S256' }),
			);
			const query = queryOf(refused.headers.location);
			expect(query.get('error')).toBe('invalid_request');
			expect(query.get('error_description')).toBe(
				'code_challenge and code_challenge_method are disallowed for confidential clients',
			);
		});

		it('accepts only the S256 code challenge method', async () => {
			const verifier = newVerifier();
			for (const method of ['plain', 's256', undefined]) {
				const refused = await authorize(publicAuthorization(verifier, { code_challenge_method: method }));
				expect(queryOf(refused.headers.location).get('error')).toBe('invalid_request');
			}
		});
	});

	describe('token endpoint, standard flow (confidential client)', () => {
		it('exchanges a code with HTTP Basic client authentication for a token record', async () => {
			const code = await codeFor(confidentialAuthorization());
			const record = expectTokenRecord(await exchangeConfidentialCode(code));
			expect(record.scope).toBe('account.read list.read subscriber.read');
			expect(harness.tokens.verify(record.access_token)).toEqual({
				ok: true,
				accountId: ACCOUNT.id,
				scopes: ['account.read', 'list.read', 'subscriber.read'],
				clientId: confidential.clientId,
			});
		});

		it('exchanges a code with client_id and client_secret parameters when Basic is not used', async () => {
			const code = await codeFor(confidentialAuthorization());
			const response = await token({
				grant_type: 'authorization_code',
				code,
				redirect_uri: N8N_CALLBACK,
				client_id: confidential.clientId,
				client_secret: confidential.clientSecret,
			});
			expectTokenRecord(response);
		});

		it('answers 401 invalid_client for a wrong or missing secret', async () => {
			const code = await codeFor(confidentialAuthorization());
			const form = { grant_type: 'authorization_code', code, redirect_uri: N8N_CALLBACK };
			expectOAuthError(
				await token(form, { authorization: basicAuthorization(confidential.clientId, 'wrong') }),
				401,
				'invalid_client',
			);
			expectOAuthError(
				await token({ ...form, client_id: confidential.clientId, client_secret: 'wrong' }),
				401,
				'invalid_client',
			);
			expectOAuthError(await token({ ...form, client_id: confidential.clientId }), 401, 'invalid_client');
			expectOAuthError(await token(form), 401, 'invalid_client');
			// None of these used the code up.
			expectTokenRecord(await exchangeConfidentialCode(code));
		});

		it('refuses two client authentication methods at once', async () => {
			const code = await codeFor(confidentialAuthorization());
			const response = await token(
				{
					grant_type: 'authorization_code',
					code,
					redirect_uri: N8N_CALLBACK,
					client_secret: confidential.clientSecret,
				},
				confidentialBasic(),
			);
			expectOAuthError(response, 400, 'invalid_request');
		});

		it('requires redirect_uri identical to the authorization request', async () => {
			const code = await codeFor(confidentialAuthorization());
			const other = 'http://localhost:5678/rest/oauth2-credential/callback';
			expectOAuthError(
				await token({ grant_type: 'authorization_code', code, redirect_uri: other }, confidentialBasic()),
				400,
				'invalid_grant',
			);
			expectOAuthError(
				await token({ grant_type: 'authorization_code', code }, confidentialBasic()),
				400,
				'invalid_request',
			);
		});

		it('answers invalid_request "invalid code" to a reused code', async () => {
			const code = await codeFor(confidentialAuthorization());
			expectTokenRecord(await exchangeConfidentialCode(code));
			expectOAuthError(await exchangeConfidentialCode(code), 400, 'invalid_request', 'invalid code');
		});

		it('answers invalid_request "invalid code" to a code that is not fresh (ten sandbox minutes)', async () => {
			const code = await codeFor(confidentialAuthorization());
			harness.clock.advance(10 * 60 * 1000 + 1000);
			expectOAuthError(await exchangeConfidentialCode(code), 400, 'invalid_request', 'invalid code');
		});

		it('answers invalid_request "invalid code" to an unknown code', async () => {
			expectOAuthError(await exchangeConfidentialCode('not-a-code'), 400, 'invalid_request', 'invalid code');
		});

		it('refuses a code_verifier from a confidential client', async () => {
			const code = await codeFor(confidentialAuthorization());
			const response = await token(
				{ grant_type: 'authorization_code', code, redirect_uri: N8N_CALLBACK, code_verifier: newVerifier() },
				confidentialBasic(),
			);
			expectOAuthError(response, 400, 'invalid_request');
		});

		it('answers invalid_request "invalid code" when another client exchanges the code', async () => {
			const verifier = newVerifier();
			const publicCode = await codeFor(publicAuthorization(challengeOf(verifier)));
			expectOAuthError(await exchangeConfidentialCode(publicCode), 400, 'invalid_request', 'invalid code');

			const confidentialCode = await codeFor(confidentialAuthorization());
			expectOAuthError(
				await exchangePublicCode(confidentialCode, verifier),
				400,
				'invalid_request',
				'invalid code',
			);
		});

		it('accepts only form-encoded requests', async () => {
			const code = await codeFor(confidentialAuthorization());
			const json = await harness.call({
				method: 'POST',
				url: '/oauth2/token',
				headers: { 'content-type': 'application/json', ...confidentialBasic() },
				payload: JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: N8N_CALLBACK }),
			});
			expectOAuthError(json, 400, 'invalid_request');
			const text = await harness.call({
				method: 'POST',
				url: '/oauth2/token',
				headers: { 'content-type': 'text/plain', ...confidentialBasic() },
				payload: 'grant_type=authorization_code',
			});
			expectOAuthError(text, 400, 'invalid_request');
		});

		it('answers unsupported_grant_type to other grants and invalid_request to a missing one', async () => {
			expectOAuthError(await token({ grant_type: 'client_credentials' }, confidentialBasic()), 400, 'unsupported_grant_type');
			expectOAuthError(await token({}, confidentialBasic()), 400, 'invalid_request');
		});

		it('refuses a parameter sent twice', async () => {
			const code = await codeFor(confidentialAuthorization());
			const response = await harness.call({
				method: 'POST',
				url: '/oauth2/token',
				headers: { 'content-type': 'application/x-www-form-urlencoded', ...confidentialBasic() },
				payload: `grant_type=authorization_code&code=${code}&code=${code}&redirect_uri=${encodeURIComponent(N8N_CALLBACK)}`,
			});
			expectOAuthError(response, 400, 'invalid_request');
		});
	});

	describe('token endpoint, public-client flow (PKCE)', () => {
		it('exchanges a code for client_id and the unhashed verifier, without a secret', async () => {
			const verifier = newVerifier();
			const code = await codeFor(publicAuthorization(challengeOf(verifier)));
			const record = expectTokenRecord(await exchangePublicCode(code, verifier));
			expect(harness.tokens.verify(record.access_token)).toMatchObject({ ok: true, clientId: publicApp.clientId });
		});

		it('accepts verifiers of 43 and of 128 characters', async () => {
			for (const verifier of [newVerifier(32), newVerifier(96)]) {
				expect([43, 128]).toContain(verifier.length);
				const code = await codeFor(publicAuthorization(challengeOf(verifier)));
				expectTokenRecord(await exchangePublicCode(code, verifier));
			}
		});

		it('answers invalid_grant "invalid code" when the verifier does not match the challenge', async () => {
			const code = await codeFor(publicAuthorization(challengeOf(newVerifier())));
			expectOAuthError(await exchangePublicCode(code, newVerifier()), 400, 'invalid_grant', 'invalid code');
		});

		it('answers invalid_grant "invalid code" to a verifier shorter than 43 or longer than 128 characters', async () => {
			for (const verifier of [newVerifier(32).slice(0, 42), newVerifier(97).slice(0, 129)]) {
				const code = await codeFor(publicAuthorization(challengeOf(verifier)));
				expectOAuthError(await exchangePublicCode(code, verifier), 400, 'invalid_grant', 'invalid code');
			}
		});

		it('answers invalid_grant "invalid code" to a verifier with + or / (plain base64)', async () => {
			let verifier = '';
			while (!/[+/]/.test(verifier)) verifier = randomBytes(32).toString('base64').replace(/=+$/, '');
			// The challenge is correct for this verifier: only the alphabet is wrong.
			const code = await codeFor(publicAuthorization(challengeOf(verifier)));
			expectOAuthError(await exchangePublicCode(code, verifier), 400, 'invalid_grant', 'invalid code');
		});

		it('answers invalid_grant "invalid code" to a challenge with + or / (plain base64 of the digest)', async () => {
			let verifier = '';
			let plainChallenge = '';
			while (!/[+/]/.test(plainChallenge)) {
				verifier = newVerifier();
				plainChallenge = createHash('sha256').update(verifier).digest('base64').replace(/=+$/, '');
			}
			const code = await codeFor(publicAuthorization(plainChallenge));
			expectOAuthError(await exchangePublicCode(code, verifier), 400, 'invalid_grant', 'invalid code');
		});

		it('requires the code_verifier', async () => {
			const code = await codeFor(publicAuthorization(challengeOf(newVerifier())));
			const response = await token({
				grant_type: 'authorization_code',
				code,
				redirect_uri: N8N_CALLBACK,
				client_id: publicApp.clientId,
			});
			expectOAuthError(response, 400, 'invalid_request');
		});

		it('refuses HTTP Basic or a secret from the public client', async () => {
			const verifier = newVerifier();
			const code = await codeFor(publicAuthorization(challengeOf(verifier)));
			const form = { grant_type: 'authorization_code', code, redirect_uri: N8N_CALLBACK, code_verifier: verifier };
			expectOAuthError(
				await token(form, { authorization: basicAuthorization(publicApp.clientId, '') }),
				401,
				'invalid_client',
			);
			expectOAuthError(
				await token({ ...form, client_id: publicApp.clientId, client_secret: 'anything' }),
				401,
				'invalid_client',
			);
			expectTokenRecord(await exchangePublicCode(code, verifier));
		});

		it('answers invalid_request "invalid code" to a reused PKCE code', async () => {
			const verifier = newVerifier();
			const code = await codeFor(publicAuthorization(challengeOf(verifier)));
			expectTokenRecord(await exchangePublicCode(code, verifier));
			expectOAuthError(await exchangePublicCode(code, verifier), 400, 'invalid_request', 'invalid code');
		});
	});

	describe('tokens and refresh', () => {
		async function confidentialTokens(): Promise<TokenRecord> {
			return expectTokenRecord(await exchangeConfidentialCode(await codeFor(confidentialAuthorization())));
		}

		it('expires the access token after its lifetime in sandbox time; a refresh still works', async () => {
			const record = await confidentialTokens();
			harness.clock.advance(3599 * 1000);
			expect(harness.tokens.verify(record.access_token).ok).toBe(true);
			harness.clock.advance(1000);
			expect(harness.tokens.verify(record.access_token)).toEqual({ ok: false, reason: 'expired' });
			const refreshed = await token({ grant_type: 'refresh_token', refresh_token: record.refresh_token }, confidentialBasic());
			expect(harness.tokens.verify(expectTokenRecord(refreshed).access_token).ok).toBe(true);
		});

		it('refreshes with Basic: a new access token and a new refresh token; the old refresh token stops working', async () => {
			const first = await confidentialTokens();
			const second = expectTokenRecord(
				await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, confidentialBasic()),
			);
			expect(second.access_token).not.toBe(first.access_token);
			expect(second.refresh_token).not.toBe(first.refresh_token);
			expect(second.scope).toBe(first.scope);
			expectOAuthError(
				await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, confidentialBasic()),
				400,
				'invalid_grant',
			);
			expectTokenRecord(
				await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token }, confidentialBasic()),
			);
		});

		it('refreshes with client_id and client_secret parameters', async () => {
			const first = await confidentialTokens();
			const response = await token({
				grant_type: 'refresh_token',
				refresh_token: first.refresh_token,
				client_id: confidential.clientId,
				client_secret: confidential.clientSecret,
			});
			expectTokenRecord(response);
		});

		it('refreshes a public client with client_id and no secret', async () => {
			const verifier = newVerifier();
			const first = expectTokenRecord(
				await exchangePublicCode(await codeFor(publicAuthorization(challengeOf(verifier))), verifier),
			);
			const refreshed = await token({
				grant_type: 'refresh_token',
				refresh_token: first.refresh_token,
				client_id: publicApp.clientId,
			});
			expectTokenRecord(refreshed);
		});

		it('refuses a refresh token of another client, and a refresh without client authentication', async () => {
			const first = await confidentialTokens();
			expectOAuthError(
				await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: publicApp.clientId }),
				400,
				'invalid_grant',
			);
			expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }), 401, 'invalid_client');
			expectOAuthError(await token({ grant_type: 'refresh_token', refresh_token: 'unknown' }, confidentialBasic()), 400, 'invalid_grant');
		});

		it('keeps the old refresh token usable when rotation is off', async () => {
			await harness.app.close();
			harness = await startOAuthServer({ rotateRefreshTokens: false });
			confidential = harness.apps.confidential;
			const first = await confidentialTokens();
			for (let i = 0; i < 2; i++) {
				expectTokenRecord(
					await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, confidentialBasic()),
				);
			}
		});

		it('expires every access token at once for fault injection', async () => {
			const record = await confidentialTokens();
			harness.tokens.expireAll();
			expect(harness.tokens.verify(record.access_token)).toEqual({ ok: false, reason: 'expired' });
			expect(harness.tokens.verify('never-issued')).toEqual({ ok: false, reason: 'unknown' });
		});
	});

	describe('revocation endpoint', () => {
		function revoke(form: Record<string, string>, headers: Record<string, string> = confidentialBasic()) {
			return harness.call(formPost('/oauth2/revoke', form, headers));
		}

		it('revokes an access token', async () => {
			const record = expectTokenRecord(await exchangeConfidentialCode(await codeFor(confidentialAuthorization())));
			const response = await revoke({ token: record.access_token, token_type_hint: 'access_token' });
			expect(response.statusCode).toBe(200);
			expect(harness.tokens.verify(record.access_token)).toEqual({ ok: false, reason: 'revoked' });
		});

		it('revokes a refresh token and the access token issued with it', async () => {
			const record = expectTokenRecord(await exchangeConfidentialCode(await codeFor(confidentialAuthorization())));
			expect((await revoke({ token: record.refresh_token })).statusCode).toBe(200);
			expect(harness.tokens.verify(record.access_token)).toEqual({ ok: false, reason: 'revoked' });
			expectOAuthError(
				await token({ grant_type: 'refresh_token', refresh_token: record.refresh_token }, confidentialBasic()),
				400,
				'invalid_grant',
			);
		});

		it('answers 200 for an unknown token, 401 without client authentication, 400 without a token', async () => {
			expect((await revoke({ token: 'unknown' })).statusCode).toBe(200);
			expectOAuthError(await revoke({ token: 'unknown' }, {}), 401, 'invalid_client');
			expectOAuthError(await revoke({}), 400, 'invalid_request');
		});
	});
});
