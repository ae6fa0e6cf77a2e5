import { createHash, randomBytes } from 'node:crypto';

import { ClientOAuth2 } from '@n8n/client-oauth2';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { request } from 'undici';

import { AWEBER_SCOPES } from '../../credentials/AWeberOAuth2Api.credentials';
import { startSandbox } from '../sandbox';
import type { Sandbox, SandboxOptions, TokenRecord } from '../sandbox/types';
import { N8nHarness } from './index';

/** Every current AWeber scope: the credential's default. */
export const ALL_SCOPES: string[] = [...AWEBER_SCOPES];

export type AppType = 'confidential' | 'public';

export interface CredentialOptions {
	scopes?: string[];
	appType?: AppType;
	/** Token data; by default one issued by the sandbox's control plane for the seeded account. */
	token?: TokenRecord;
	/** Overrides of the credential's pacing (by default AWeber's limit, scaled to the sandbox clock). */
	rateLimitRequests?: number;
	rateLimitWindowSeconds?: number;
	webhookVerificationSecret?: string;
	id?: string;
}

/** Credential data as a user would save it after connecting to the sandbox. */
export function sandboxCredentialData(sandbox: Sandbox, options: CredentialOptions = {}): ICredentialDataDecryptedObject {
	const scopes = options.scopes ?? ALL_SCOPES;
	const appType = options.appType ?? 'confidential';
	const app = appType === 'confidential' ? sandbox.apps.confidential : sandbox.apps.public;
	const token = options.token ?? sandbox.issueToken(scopes, { clientId: app.clientId });
	return {
		grantType: appType === 'confidential' ? 'authorizationCode' : 'pkce',
		clientId: app.clientId,
		...(appType === 'confidential' ? { clientSecret: sandbox.apps.confidential.clientSecret } : {}),
		scope: scopes.join(' '),
		apiBaseUrl: sandbox.apiBaseUrl,
		authBaseUrl: sandbox.authBaseUrl,
		rateLimitRequests: options.rateLimitRequests ?? 120,
		rateLimitWindowSeconds: options.rateLimitWindowSeconds ?? 60 / sandbox.clock.timeScale,
		webhookVerificationSecret: options.webhookVerificationSecret ?? '',
		oauthTokenData: { ...token },
	};
}

export interface AweberTestbed {
	sandbox: Sandbox;
	harness: N8nHarness;
	/** A connected credential with every scope. */
	credentialId: string;
	connect(options?: CredentialOptions): string;
	stop(): Promise<void>;
}

/**
 * A sandbox on a free loopback port and a harness with a credential connected to it.
 * Tests default to a 60x clock so AWeber's one-minute rate window and lockout take one second.
 */
export async function startTestbed(options: SandboxOptions & { credential?: CredentialOptions } = {}): Promise<AweberTestbed> {
	const sandbox = await startSandbox({ timeScale: 60, ...options });
	const harness = new N8nHarness();
	const connect = (credentialOptions: CredentialOptions = {}) =>
		harness.addCredential(sandboxCredentialData(sandbox, credentialOptions), credentialOptions.id);
	const credentialId = connect(options.credential);
	return { sandbox, harness, credentialId, connect, stop: async () => await sandbox.stop() };
}

/** PKCE as AWeber's OAuth rules say (docs/aweber-behaviour.md#oauth-20): 32 random bytes, URL-safe base64 without padding; S256 of the raw verifier. */
export function createPkcePair(): { verifier: string; challenge: string } {
	const verifier = randomBytes(32).toString('base64url');
	const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
	return { verifier, challenge };
}

export const SANDBOX_LOGIN = { username: 'sandbox', password: 'sandbox' };

export interface AuthorizeResult {
	token: TokenRecord;
	redirectUri: string;
}

/**
 * The browser part of the authorization code flow done over HTTP (authorize page, sign-in, approve),
 * then the token exchange made by n8n's own OAuth2 client, as n8n's callback does.
 */
export async function authorizeOverHttp(
	sandbox: Sandbox,
	options: { appType?: AppType; scopes?: string[]; redirectUri?: string } = {},
): Promise<AuthorizeResult> {
	const appType = options.appType ?? 'confidential';
	const app = appType === 'confidential' ? sandbox.apps.confidential : sandbox.apps.public;
	const redirectUri = options.redirectUri ?? app.redirectUris.find((uri) => uri.startsWith('http')) ?? app.redirectUris[0];
	const state = randomBytes(12).toString('hex');
	const pkce = appType === 'public' ? createPkcePair() : undefined;
	const client = new ClientOAuth2({
		clientId: app.clientId,
		clientSecret: appType === 'confidential' ? sandbox.apps.confidential.clientSecret : undefined,
		accessTokenUri: `${sandbox.authBaseUrl}/oauth2/token`,
		authorizationUri: `${sandbox.authBaseUrl}/oauth2/authorize`,
		redirectUri,
		scopes: options.scopes ?? ALL_SCOPES,
		state,
		authentication: 'header',
	});
	const authorizeUrl = new URL(client.code.getUri());
	if (pkce) {
		authorizeUrl.searchParams.set('code_challenge', pkce.challenge);
		authorizeUrl.searchParams.set('code_challenge_method', 'S256');
	}
	const page = await request(authorizeUrl);
	const html = await page.body.text();
	if (page.statusCode !== 200) throw new Error(`Authorize page answered ${page.statusCode}: ${html.slice(0, 300)}`);
	const form = new URLSearchParams();
	for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
		form.set(match[1], unescapeHtml(match[2]));
	}
	form.set('username', SANDBOX_LOGIN.username);
	form.set('password', SANDBOX_LOGIN.password);
	form.set('decision', 'approve');
	const action = /<form id="authorize" method="post" action="([^"]+)"/.exec(html)?.[1] ?? '/oauth2/authorize/decision';
	const decision = await request(`${sandbox.authBaseUrl}${action}`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: form.toString(),
	});
	await decision.body.dump();
	const location = decision.headers.location;
	if (decision.statusCode !== 302 || typeof location !== 'string') {
		throw new Error(`Approving answered ${decision.statusCode} without a redirect`);
	}
	const token = await client.code.getToken(location, pkce ? { body: { code_verifier: pkce.verifier } } : undefined);
	return { token: token.data as unknown as TokenRecord, redirectUri };
}

function unescapeHtml(value: string): string {
	return value
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

/**
 * The testbed of one test file: started before its tests and stopped after them. Before each test the request
 * log is cleared and, unless `resetEachTest` is false, the sandbox's data is seeded afresh.
 */
export function useTestbed(
	options: SandboxOptions & { credential?: CredentialOptions; resetEachTest?: boolean } = {},
): AweberTestbed {
	const { resetEachTest = true, ...testbedOptions } = options;
	let bed: AweberTestbed | undefined;
	beforeAll(async () => {
		bed = await startTestbed(testbedOptions);
	});
	afterAll(async () => await bed?.stop());
	beforeEach(() => {
		if (resetEachTest) bed!.sandbox.reset();
		bed!.sandbox.clearRequests();
	});
	// Tests read the testbed when they run, after beforeAll started it.
	return new Proxy({} as AweberTestbed, {
		get: (_target, property) => {
			if (!bed) throw new Error('The testbed is started in beforeAll; read it inside a test or hook');
			return bed[property as keyof AweberTestbed];
		},
	});
}
