import { createHash } from 'node:crypto';

import { ClientOAuth2 } from '@n8n/client-oauth2';
import type { IWorkflowDataProxyAdditionalKeys } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { request } from 'undici';
import { refreshesOncePerCredential } from '../harness/n8nVersion';

import { AWeberOAuth2Api } from '../../credentials/AWeberOAuth2Api.credentials';

import {
	ALL_SCOPES,
	authorizeOverHttp,
	createPkcePair,
	sandboxCredentialData,
	useTestbed,
	type AweberTestbed,
} from '../harness/aweber';

const accountGet = (bed: AweberTestbed, credentialId: string) =>
	bed.harness.runNode({
		type: 'aWeberAccount',
		credentialId,
		parameters: { operation: 'get', accountId: { __rl: true, mode: 'id', value: String(bed.sandbox.seed.accountId) } },
	});

describe('AWeber OAuth2 credential', () => {
	const bed = useTestbed({ resetEachTest: false });

	it('resolves the authorize and token URLs from the auth base URL, with every scope by default', () => {
		const resolved = bed.harness.credentials.resolve(
			{ grantType: 'authorizationCode', clientId: 'id', authBaseUrl: 'https://auth.example.test/' },
			'aWeberOAuth2Api',
		);
		expect(resolved.authUrl).toBe('https://auth.example.test/oauth2/authorize');
		expect(resolved.accessTokenUrl).toBe('https://auth.example.test/oauth2/token');
		expect(resolved.apiBaseUrl).toBe('https://api.aweber.com');
		expect(String(resolved.scope).split(' ').sort()).toEqual([...ALL_SCOPES].sort());
		expect(resolved.authentication).toBe('header');
		// n8n appends these to the authorize URL the user is sent to: none.
		expect(resolved.authQueryParameters).toBe('');
	});

	it('defaults to AWeber itself', () => {
		const resolved = bed.harness.credentials.resolve({ clientId: 'id' }, 'aWeberOAuth2Api');
		expect(resolved.authUrl).toBe('https://auth.aweber.com/oauth2/authorize');
		expect(resolved.accessTokenUrl).toBe('https://auth.aweber.com/oauth2/token');
		expect(resolved.grantType).toBe('authorizationCode');
	});

	it('a public (PKCE) credential holds no client secret, even one saved before its type was switched', () => {
		const resolve = (data: Record<string, string>) => bed.harness.credentials.resolve(data, 'aWeberOAuth2Api');
		expect(resolve({ grantType: 'pkce', clientId: 'id', clientSecret: 'kept from before' }).clientSecret).toBeUndefined();
		expect(resolve({ grantType: 'authorizationCode', clientId: 'id', clientSecret: 'secret' }).clientSecret).toBe('secret');
		// What is left empty is sent as nothing, not as some text.
		expect(resolve({ grantType: 'authorizationCode' })).toMatchObject({ clientId: '', clientSecret: '' });
	});

	it('its dialog offers both app types, confidential by default, asks for the client ID and masks the secret', () => {
		const field = (name: string) => new AWeberOAuth2Api().properties.find((property) => property.name === name);
		expect(field('grantType')).toMatchObject({
			type: 'options',
			default: 'authorizationCode',
			options: [{ value: 'authorizationCode' }, { value: 'pkce' }],
		});
		expect(field('clientId')).toMatchObject({ required: true });
		expect(field('clientSecret')).toMatchObject({ typeOptions: { password: true } });
		// Where the authorization and the token go follows the Auth Base URL: not fields of their own to edit.
		for (const name of ['authUrl', 'accessTokenUrl', 'authQueryParameters', 'authentication']) expect(field(name)).toMatchObject({ type: 'hidden' });
	});

	it('tests a credential (the dialog\'s Test button) by reading the accounts of its own API, whatever slashes end its URL', async () => {
		const credential = new AWeberOAuth2Api();
		const resolved = bed.harness.credentials.resolve({ clientId: 'id', apiBaseUrl: `${bed.sandbox.apiBaseUrl}//` }, credential.name);
		// n8n resolves the test request as a node's request: `$credentials` is the saved credential.
		const host = bed.harness.toNode({ type: 'aWeberAccount', parameters: {} }, 'Host');
		const workflow = new Workflow({ nodes: [host], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
		const keys = { $credentials: resolved } as unknown as IWorkflowDataProxyAdditionalKeys;
		const { baseURL, url } = credential.test.request;
		const base = workflow.expression.getSimpleParameterValue(host, baseURL, 'internal', keys);
		expect(`${String(base)}${String(url)}`).toBe(`${bed.sandbox.apiBaseUrl}/1.0/accounts`);
		const answer = await request(`${String(base)}${String(url)}`, { headers: { authorization: `Bearer ${bed.sandbox.issueToken().access_token}` } });
		expect(answer.statusCode).toBe(200);
		expect(((await answer.body.json()) as { entries: Array<{ id: number }> }).entries.map((entry) => entry.id)).toEqual([bed.sandbox.seed.accountId]);
	});

	it.each(['confidential', 'public'] as const)(
		'connects a %s app through authorize, sign-in, approve and token exchange, then runs a workflow',
		async (appType) => {
			const { token } = await authorizeOverHttp(bed.sandbox, { appType });
			expect(token).toMatchObject({ token_type: 'bearer' });
			expect(typeof token.access_token).toBe('string');
			const tokenCall = bed.sandbox.requests().find((entry) => entry.path === '/oauth2/token');
			expect(tokenCall?.contentType).toContain('application/x-www-form-urlencoded');
			const body = tokenCall?.body as Record<string, string>;
			if (appType === 'public') {
				// Public clients: client_id and code_verifier in the body, never a secret.
				expect(body.client_id).toBe(bed.sandbox.apps.public.clientId);
				expect(body.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
				expect(body.client_secret).toBeUndefined();
			} else {
				expect(body.client_id).toBeUndefined();
				expect(body.client_secret).toBeUndefined();
			}

			const credentialId = bed.connect({ appType, token });
			const result = await accountGet(bed, credentialId);
			expect(result.status).toBe('success');
			expect(result.items).toEqual([expect.objectContaining({ id: bed.sandbox.seed.accountId })]);
		},
	);

	describe('token endpoint refusals seen by n8n\'s OAuth2 client', () => {
		async function codeFor(appType: 'confidential' | 'public', challenge?: string): Promise<{ code: string; redirectUri: string }> {
			const app = appType === 'confidential' ? bed.sandbox.apps.confidential : bed.sandbox.apps.public;
			const redirectUri = app.redirectUris.find((uri) => uri.startsWith('http'))!;
			const authorize = new URL(`${bed.sandbox.authBaseUrl}/oauth2/authorize`);
			authorize.search = new URLSearchParams({
				response_type: 'code',
				client_id: app.clientId,
				redirect_uri: redirectUri,
				scope: 'account.read',
				...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
			}).toString();
			const page = await (await request(authorize)).body.text();
			const form = new URLSearchParams();
			for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(match[1], match[2].replace(/&amp;/g, '&'));
			form.set('username', 'sandbox');
			form.set('password', 'sandbox');
			form.set('decision', 'approve');
			const decision = await request(`${bed.sandbox.authBaseUrl}/oauth2/authorize/decision`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: form.toString(),
			});
			await decision.body.dump();
			const code = new URL(String(decision.headers.location)).searchParams.get('code');
			if (!code) throw new Error('no code');
			return { code, redirectUri };
		}

		function client(appType: 'confidential' | 'public', redirectUri: string, clientId?: string) {
			const app = appType === 'confidential' ? bed.sandbox.apps.confidential : bed.sandbox.apps.public;
			return new ClientOAuth2({
				clientId: clientId ?? app.clientId,
				clientSecret: appType === 'confidential' ? bed.sandbox.apps.confidential.clientSecret : undefined,
				accessTokenUri: `${bed.sandbox.authBaseUrl}/oauth2/token`,
				redirectUri,
				authentication: 'header',
			});
		}

		const refusal = async (promise: Promise<unknown>) => {
			const error = (await promise.then(
				() => undefined,
				(caught: unknown) => caught,
			)) as { body?: { error?: string; error_description?: string } } | undefined;
			expect(error).toBeDefined();
			return error?.body;
		};

		it('refuses a PKCE verifier that does not match the challenge: invalid_grant "invalid code"', async () => {
			const { challenge } = createPkcePair();
			const { code, redirectUri } = await codeFor('public', challenge);
			const body = await refusal(
				client('public', redirectUri).code.getToken(`${redirectUri}?code=${code}`, { body: { code_verifier: createPkcePair().verifier } }),
			);
			expect(body).toEqual({ error: 'invalid_grant', error_description: 'invalid code' });
		});

		it('refuses a verifier written with + or / instead of URL-safe characters: invalid_grant', async () => {
			const { verifier, challenge } = createPkcePair();
			const { code, redirectUri } = await codeFor('public', challenge);
			const unsafe = `${verifier.slice(0, -2)}+/`;
			const body = await refusal(
				client('public', redirectUri).code.getToken(`${redirectUri}?code=${code}`, { body: { code_verifier: unsafe } }),
			);
			expect(body).toEqual({ error: 'invalid_grant', error_description: 'invalid code' });
		});

		it('accepts a verifier drawn from all of RFC 7636\'s unreserved characters, as n8n makes them', async () => {
			const verifier = `${createPkcePair().verifier}.~-_`.slice(-64);
			const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
			const { code, redirectUri } = await codeFor('public', challenge);
			const token = await client('public', redirectUri).code.getToken(`${redirectUri}?code=${code}`, { body: { code_verifier: verifier } });
			expect(token.accessToken).toEqual(expect.any(String));
		});

		it('refuses a reused authorization code: invalid_request "invalid code"', async () => {
			const { code, redirectUri } = await codeFor('confidential');
			await client('confidential', redirectUri).code.getToken(`${redirectUri}?code=${code}`);
			const body = await refusal(client('confidential', redirectUri).code.getToken(`${redirectUri}?code=${code}`));
			expect(body).toEqual({ error: 'invalid_request', error_description: 'invalid code' });
		});

		it('refuses a code redeemed by another client than the one it was issued to: invalid_request "invalid code"', async () => {
			const { code, redirectUri } = await codeFor('confidential');
			const body = await refusal(
				client('public', redirectUri).code.getToken(`${redirectUri}?code=${code}`, { body: { code_verifier: createPkcePair().verifier } }),
			);
			expect(body).toEqual({ error: 'invalid_request', error_description: 'invalid code' });
		});
	});

	it('refreshes a token that expires in the middle of a workflow once, and stores the rotated refresh token', async () => {
		const token = bed.sandbox.issueToken(ALL_SCOPES, { clientId: bed.sandbox.apps.confidential.clientId });
		const credentialId = bed.connect({ token });
		const accountId = { __rl: true, mode: 'id', value: String(bed.sandbox.seed.accountId) };
		const result = await bed.harness.runChain(
			[
				{ type: 'aWeberAccount', name: 'Read Account', credentialId, parameters: { operation: 'get', accountId } },
				{ type: 'aWeberIntegration', name: 'Read Integrations', credentialId, parameters: { operation: 'getAll', accountId, returnAll: true } },
			],
			[{}, {}, {}],
			{ afterNode: (nodeName) => (nodeName === 'Read Account' ? bed.sandbox.faults.expireAllTokens() : undefined) },
		);
		expect(result.status).toBe('success');
		expect(result.json('Read Account')).toHaveLength(3);
		expect(result.json('Read Integrations').length).toBeGreaterThan(0);
		const tokenCalls = bed.sandbox.requests().filter((entry) => entry.path === '/oauth2/token');
		// One refresh is granted; n8n 1.x also sends the requests racing it to the token endpoint, where they lose.
		expect(tokenCalls.filter((entry) => entry.status === 200)).toHaveLength(1);
		if (refreshesOncePerCredential) expect(tokenCalls).toHaveLength(1);
		expect(tokenCalls.every((entry) => (entry.body as Record<string, string>).grant_type === 'refresh_token')).toBe(true);

		const stored = bed.harness.credentials.get(credentialId).data.oauthTokenData as Record<string, string>;
		expect(stored.refresh_token).not.toBe(token.refresh_token);
		expect(bed.harness.credentials.tokenUpdates.at(-1)?.oauthTokenData.refresh_token).toBe(stored.refresh_token);
		// The old refresh token no longer works: only the stored one lets the next run refresh.
		const reuse = await request(`${bed.sandbox.authBaseUrl}/oauth2/token`, {
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				authorization: `Basic ${Buffer.from(`${bed.sandbox.apps.confidential.clientId}:${bed.sandbox.apps.confidential.clientSecret}`).toString('base64')}`,
			},
			body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token.refresh_token }).toString(),
		});
		expect(reuse.statusCode).toBe(400);
		await reuse.body.dump();
	});

	it('refreshes a public (PKCE) credential with client_id in the body and no secret', async () => {
		const token = bed.sandbox.issueToken(ALL_SCOPES, { clientId: bed.sandbox.apps.public.clientId });
		const credentialId = bed.connect({ appType: 'public', token });
		bed.sandbox.faults.expireAllTokens();
		const result = await accountGet(bed, credentialId);
		expect(result.status).toBe('success');
		const refresh = bed.sandbox.requests().find((entry) => entry.path === '/oauth2/token');
		expect(refresh?.body).toMatchObject({ grant_type: 'refresh_token', client_id: bed.sandbox.apps.public.clientId });
		expect((refresh?.body as Record<string, string>).client_secret).toBeUndefined();
	});

	it('names the missing scope and says to reconnect when the credential was narrowed', async () => {
		const credentialId = bed.connect({ scopes: ['list.read'] });
		const result = await accountGet(bed, credentialId);
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('account.read');
		expect(result.error?.description).toContain('reconnect');
		expect(result.error?.httpCode).toBe('403');
	});

	it('keeps the credential data a user saves: scopes narrowed by the user are sent as asked', () => {
		const data = sandboxCredentialData(bed.sandbox, { scopes: ['list.read', 'subscriber.read'] });
		const resolved = bed.harness.credentials.resolve(data, 'aWeberOAuth2Api');
		expect(resolved.scope).toBe('list.read subscriber.read');
	});
});
