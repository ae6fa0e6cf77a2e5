// OAuth connect through n8n, as a user does it: the credential dialog's Connect button, n8n's own OAuth
// endpoints (/rest/oauth2-credential/auth and /callback), and the sandbox's AWeber sign-in and approve page
// in a headless Chromium pop-up. Then a workflow runs with the connected credential.
import { createHash } from 'node:crypto';

import type { Browser } from 'playwright-core';

import { startSandbox, type RequestLogEntry, type Sandbox } from '../sandbox';
import {
	aweberWorkflow,
	byId,
	createAweberCredential,
	importWorkflow,
	nodeItems,
	oauthCallbackUrl,
	runWorkflow,
	startN8n,
	type AppType,
	type N8nInstance,
} from './lib';
import { connectCredentialInEditor, launchBrowser, openSignedInEditor, saveScreenshot } from './lib/browser';

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe('OAuth connect through n8n in a browser', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let browser: Browser;

	beforeAll(async () => {
		sandbox = await startSandbox();
		[n8n, browser] = await Promise.all([startN8n(), launchBrowser()]);
	});
	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await sandbox?.stop();
	});

	const oauthRequests = (path: string): RequestLogEntry[] => sandbox.requests().filter((entry) => entry.path === path);

	/** Connects a new, unconnected credential in the editor; returns what n8n and the sandbox saw. */
	async function connectInBrowser(appType: AppType, screenshot?: string) {
		const credentialId = await createAweberCredential(n8n, sandbox, { appType, token: null, name: `AWeber (${appType} app)` });
		sandbox.clearRequests();
		const { context, page } = await openSignedInEditor(browser, n8n);
		try {
			const connected = await connectCredentialInEditor(page, n8n, credentialId);
			if (screenshot) await saveScreenshot(page, screenshot);
			return { credentialId, ...connected };
		} finally {
			await context.close();
		}
	}

	/** n8n stored a token, and a workflow with the credential reads the account from the sandbox. */
	async function expectCredentialWorks(credentialId: string): Promise<void> {
		const credential = await n8n.rest<{ data: Record<string, unknown> }>('GET', `/credentials/${credentialId}?includeData=true`);
		// n8n redacts the token data to `true` in this answer.
		expect(credential.data.oauthTokenData).toBeTruthy();

		const workflowId = await importWorkflow(
			n8n,
			aweberWorkflow('Account after OAuth connect', credentialId, [
				{ name: 'Account', node: 'aWeberAccount', parameters: { operation: 'get', accountId: byId(sandbox.seed.accountId) } },
			]),
		);
		const result = await runWorkflow(n8n, workflowId);
		expect(result.status).toBe('success');
		expect(nodeItems(result, 'Account')).toEqual([
			expect.objectContaining({ id: sandbox.seed.accountId, company: sandbox.seed.company }),
		]);
		expect(sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'))).toEqual([
			expect.objectContaining({ method: 'GET', path: `/1.0/accounts/${sandbox.seed.accountId}`, status: 200 }),
		]);
	}

	it('confidential app: the secret stays server-side, n8n stores the token, a workflow runs with it', async () => {
		const { credentialId, authorizeUrl, callbackPage } = await connectInBrowser('confidential', 'credential-connected.png');

		expect(authorizeUrl.origin).toBe(sandbox.authBaseUrl);
		expect(Object.fromEntries(authorizeUrl.searchParams)).toEqual({
			client_id: sandbox.apps.confidential.clientId,
			redirect_uri: oauthCallbackUrl(n8n),
			response_type: 'code',
			scope: expect.stringContaining('subscriber.write'),
			state: expect.any(String),
		});
		expect(callbackPage).toContain('Connection successful');

		const tokenRequests = oauthRequests('/oauth2/token');
		expect(tokenRequests).toEqual([expect.objectContaining({ method: 'POST', status: 200 })]);
		// The secret travels in the Basic authorization header (the sandbox refuses the exchange without it),
		// never in the form body; no PKCE for this app type.
		expect(tokenRequests[0].body).toEqual({
			grant_type: 'authorization_code',
			code: expect.any(String),
			redirect_uri: oauthCallbackUrl(n8n),
		});

		await expectCredentialWorks(credentialId);
	});

	it('public app (PKCE): client id and code verifier only, n8n stores the token, a workflow runs with it', async () => {
		const { credentialId, authorizeUrl, callbackPage } = await connectInBrowser('public');

		expect(authorizeUrl.origin).toBe(sandbox.authBaseUrl);
		const authorize = Object.fromEntries(authorizeUrl.searchParams);
		expect(authorize).toEqual({
			client_id: sandbox.apps.public.clientId,
			redirect_uri: oauthCallbackUrl(n8n),
			response_type: 'code',
			scope: expect.stringContaining('subscriber.write'),
			state: expect.any(String),
			code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
			code_challenge_method: 'S256',
		});
		expect(callbackPage).toContain('Connection successful');

		const tokenRequests = oauthRequests('/oauth2/token');
		expect(tokenRequests).toEqual([expect.objectContaining({ method: 'POST', status: 200 })]);
		const exchange = tokenRequests[0].body as Record<string, string>;
		expect(exchange).toEqual({
			grant_type: 'authorization_code',
			code: expect.any(String),
			redirect_uri: oauthCallbackUrl(n8n),
			client_id: sandbox.apps.public.clientId,
			code_verifier: expect.stringMatching(CODE_VERIFIER),
		});
		expect(exchange).not.toHaveProperty('client_secret');
		// The verifier n8n kept is the one behind the challenge the browser carried to the sign-in page.
		expect(s256(exchange.code_verifier)).toBe(authorize.code_challenge);

		await expectCredentialWorks(credentialId);
	});
});
