import type { SandboxApps } from './types';

/** The out-of-band redirect: the code is shown on a page instead of sent to a callback (seed, public-client flow). */
export const OOB_REDIRECT_URI = 'urn:ietf:wg:oauth:2.0:oob';

/** Callbacks registered on both apps: out-of-band, and n8n's OAuth2 credential callback on its default port. */
export const DEFAULT_REDIRECT_URIS: readonly string[] = [
	OOB_REDIRECT_URI,
	'http://127.0.0.1:5678/rest/oauth2-credential/callback',
	'http://localhost:5678/rest/oauth2-credential/callback',
];

/** Extra redirect URIs for both apps, comma separated (an n8n on another port, an e2e harness). */
export const REDIRECT_URIS_ENV = 'AWEBER_SANDBOX_REDIRECT_URIS';

/** The customer account's sign-in on the authorization screen (seed, standard flow step 2). */
export const SANDBOX_CUSTOMER_LOGIN = { username: 'sandbox', password: 'sandbox' } as const;

export type AppKind = 'confidential' | 'public';

export interface RegisteredApp {
	kind: AppKind;
	clientId: string;
	/** Only confidential apps have one. */
	clientSecret?: string;
	redirectUris: string[];
}

export function redirectUrisFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
	return (env[REDIRECT_URIS_ENV] ?? '')
		.split(',')
		.map((uri) => uri.trim())
		.filter((uri) => uri !== '');
}

/**
 * One confidential app (client id and secret) and one public app (PKCE, no secret).
 * The returned object is mutable on purpose: a test may push a redirect URI onto an app at run time.
 */
export function defaultApps(extraRedirectUris: string[] = redirectUrisFromEnv()): SandboxApps {
	const redirectUris = () => [...new Set([...DEFAULT_REDIRECT_URIS, ...extraRedirectUris])];
	return {
		confidential: {
			clientId: 'sandbox-confidential-client',
			clientSecret: 'sandbox-confidential-secret',
			redirectUris: redirectUris(),
		},
		public: {
			clientId: 'sandbox-public-client',
			redirectUris: redirectUris(),
		},
	};
}

export function findApp(apps: SandboxApps, clientId: string | undefined): RegisteredApp | undefined {
	if (clientId === undefined || clientId === '') return undefined;
	if (apps.confidential.clientId === clientId) return { kind: 'confidential', ...apps.confidential };
	if (apps.public.clientId === clientId) return { kind: 'public', ...apps.public };
	return undefined;
}

/** Seed rule 3: the redirect_uri must match a registered one exactly (no prefix, no wildcard, no normalisation). */
export function isRegisteredRedirectUri(app: RegisteredApp, redirectUri: string): boolean {
	return app.redirectUris.includes(redirectUri);
}
