// AWeber credentials in n8n, pointed at the sandbox.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Sandbox, TokenRecord } from '../../sandbox/types';
import { runN8nCli, type N8nInstance } from './n8n';

export const CREDENTIAL_TYPE = 'aWeberOAuth2Api';

export type AppType = 'confidential' | 'public';

export interface AweberCredentialOptions {
	/** Which sandbox app: confidential (client secret, HTTP Basic) or public (PKCE). Default confidential. */
	appType?: AppType;
	/**
	 * Stored as oauthTokenData, so the credential is connected without the OAuth dance.
	 * Default: a fresh sandbox token for the app; null: not connected (for OAuth connect tests).
	 */
	token?: TokenRecord | null;
	/** Scopes of the default token and of the credential's Scope field. Default: every scope. */
	scopes?: string[];
	name?: string;
	webhookVerificationSecret?: string;
	/** Extra or overriding credential fields (e.g. rateLimitRequests). */
	data?: Record<string, unknown>;
}

/** n8n's OAuth callback; the sandbox only redirects to registered URIs. */
export function oauthCallbackUrl(n8n: Pick<N8nInstance, 'baseUrl'>): string {
	return `${n8n.baseUrl}/rest/oauth2-credential/callback`;
}

/** Registers n8n's OAuth callback with both sandbox apps (idempotent). */
export function allowN8nRedirect(n8n: Pick<N8nInstance, 'baseUrl'>, sandbox: Sandbox): void {
	const callback = oauthCallbackUrl(n8n);
	for (const app of [sandbox.apps.confidential, sandbox.apps.public]) {
		if (!app.redirectUris.includes(callback)) app.redirectUris.push(callback);
	}
}

/** The credential's `data` as n8n's credential dialog would save it for the sandbox. */
export function aweberCredentialData(sandbox: Sandbox, options: AweberCredentialOptions = {}): Record<string, unknown> {
	const appType = options.appType ?? 'confidential';
	const app = appType === 'confidential' ? sandbox.apps.confidential : sandbox.apps.public;
	const token =
		options.token === undefined ? sandbox.issueToken(options.scopes, { clientId: app.clientId }) : options.token;
	return {
		grantType: appType === 'confidential' ? 'authorizationCode' : 'pkce',
		clientId: app.clientId,
		...(appType === 'confidential' ? { clientSecret: sandbox.apps.confidential.clientSecret } : {}),
		...(options.scopes ? { scope: options.scopes.join(' ') } : {}),
		apiBaseUrl: sandbox.apiBaseUrl,
		authBaseUrl: sandbox.authBaseUrl,
		...(options.webhookVerificationSecret ? { webhookVerificationSecret: options.webhookVerificationSecret } : {}),
		...(token ? { oauthTokenData: token } : {}),
		...options.data,
	};
}

/** Creates an AWeber OAuth2 credential through n8n's REST API; resolves with its id. */
export async function createAweberCredential(
	n8n: N8nInstance,
	sandbox: Sandbox,
	options: AweberCredentialOptions = {},
): Promise<string> {
	allowN8nRedirect(n8n, sandbox);
	const created = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name: options.name ?? `AWeber sandbox (${options.appType ?? 'confidential'})`,
		type: CREDENTIAL_TYPE,
		data: aweberCredentialData(sandbox, options),
	});
	return created.id;
}

/**
 * The credential's data as n8n stored it, decrypted (oauthTokenData included), read with n8n's own
 * `export:credentials --decrypted` on the instance's user folder: REST only ever answers `oauthTokenData: true`.
 */
export async function readStoredCredentialData(n8n: Pick<N8nInstance, 'userFolder'>, credentialId: string): Promise<Record<string, any>> {
	const folder = mkdtempSync(path.join(tmpdir(), 'n8n-aweber-export-'));
	const file = path.join(folder, 'credentials.json');
	try {
		await runN8nCli(n8n.userFolder, ['export:credentials', `--id=${credentialId}`, '--decrypted', `--output=${file}`]);
		const [credential] = JSON.parse(readFileSync(file, 'utf8')) as Array<{ data: Record<string, any> }>;
		return credential.data;
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
