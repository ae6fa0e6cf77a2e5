import { AWEBER_CREDENTIAL_TYPE, AWEBER_REQUESTS_PER_MINUTE } from './constants';
import type { RateLimitSettings } from './rateLimiter';
import type { AweberContext } from './aweberContext';

/** The credential's settings the request path needs: its API base URL and its rate limit. */
export interface AccountSettings extends RateLimitSettings {
	apiBaseUrl: string;
}

const settingsCache = new Map<string, { settings: Promise<AccountSettings>; readAt: number }>();

async function readAccountSettings(context: AweberContext): Promise<AccountSettings> {
	const credentials = await context.getCredentials(AWEBER_CREDENTIAL_TYPE);
	const requests = Number(credentials.rateLimitRequests) > 0 ? Number(credentials.rateLimitRequests) : AWEBER_REQUESTS_PER_MINUTE;
	const windowSeconds = Number(credentials.rateLimitWindowSeconds) > 0 ? Number(credentials.rateLimitWindowSeconds) : 60;
	return {
		requests,
		windowMs: windowSeconds * 1000,
		// n8n fills in the credential type's default (https://api.aweber.com) for a field never saved.
		apiBaseUrl: String(credentials.apiBaseUrl).replace(/\/+$/, ''),
	};
}

/** The credential's settings, and the key its rate limiter and notices go by (the credential's ID). */
export async function accountSettings(context: AweberContext): Promise<{ key: string; settings: AccountSettings }> {
	const credentialRef = context.getNode().credentials?.[AWEBER_CREDENTIAL_TYPE];
	const key = credentialRef?.id ?? credentialRef?.name ?? 'aweber';
	const cached = settingsCache.get(key);
	// Credential reads can hit n8n's database; a second's cache still applies an edited credential at once.
	if (cached && performance.now() - cached.readAt < 1_000) return { key, settings: await cached.settings };
	const settings = readAccountSettings(context);
	settingsCache.set(key, { settings, readAt: performance.now() });
	settings.catch(() => settingsCache.delete(key));
	return { key, settings: await settings };
}

/** The credential's API base URL (`https://api.aweber.com`), as the origin check reads it. */
export async function apiBaseUrlOf(context: AweberContext): Promise<string> {
	return (await accountSettings(context)).settings.apiBaseUrl;
}
