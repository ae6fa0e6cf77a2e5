// The AWeber sandbox: a faithful local AWeber (API 1.0, OAuth 2.0 server, signed webhooks) on 127.0.0.1.
// Tests start it on a free port; `npm run sandbox` starts it alone (cli.ts).
import { defaultApps } from './apps';
import { SandboxClock } from './clock';
import { DEFAULT_RATE_LIMIT, RateLimiter } from './ratelimit';
import { DEFAULT_SEED_SIZE, SEED_ACCOUNT } from './seed';
import { SandboxCore, buildServer } from './server';
import { TokenStore } from './tokens';
import type { Sandbox, SandboxOptions } from './types';
import { WebhookDispatcher } from './webhooks';

export * from './types';
export { SandboxClock } from './clock';
export { SEED_ACCOUNT, SEED_EXTRAS } from './seed';

const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const clock = new SandboxClock(options.timeScale ?? 1);
	const apps = defaultApps();
	const tokens = new TokenStore(clock, {
		lifetimeSeconds: options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
		rotateRefreshTokens: options.rotateRefreshTokens ?? true,
	});
	const rateLimiter = new RateLimiter(clock, options.rateLimit ?? DEFAULT_RATE_LIMIT);
	const webhooks = new WebhookDispatcher(clock, { clientId: apps.confidential.clientId, accountUuid: SEED_ACCOUNT.uuid });
	const core = new SandboxCore({
		clock,
		tokens,
		apps,
		rateLimiter,
		webhooks,
		seedSize: options.seedSize ?? DEFAULT_SEED_SIZE,
		logFile: options.logFile ?? process.env.AWEBER_SANDBOX_LOG,
	});

	const app = await buildServer(core);
	await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
	const address = app.server.address();
	const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
	core.baseUrl = `http://127.0.0.1:${port}`;

	return {
		apiBaseUrl: core.baseUrl,
		authBaseUrl: core.baseUrl,
		port,
		clock,
		apps,
		get seed() {
			return core.seed;
		},
		issueToken: (scopes, tokenOptions) => core.issueToken(scopes, tokenOptions),
		requests: () => core.requests(),
		clearRequests: () => core.clearRequests(),
		importSubscribers: (listId, emails) => {
			core.state.list(listId);
			// AWeber's times are whole seconds.
			const second = Math.floor(clock.now() / 1000) * 1000;
			return emails.map((email) => {
				const subscriber = { ...core.state.newSubscriber(listId, email, second), subscriptionMethod: 'import' as const };
				core.state.insertSubscriber(subscriber);
				return subscriber.id;
			});
		},
		reset: (resetOptions) => core.reset(resetOptions),
		setAccountStanding: (standing, standingOptions) => core.setAccountStanding(standing, standingOptions?.refusedEmails),
		statisticNames: (accepted) => {
			core.state.unsubscribeStatisticSpellings = [...accepted];
		},
		retireMessageEndpoints: () => {
			core.state.messageEndpointsRetired = true;
		},
		activity: {
			open: (broadcastId, subscriberId) => core.recordEngagement({ kind: 'open', broadcastId, subscriberId }),
			click: (broadcastId, subscriberId, url) => core.recordEngagement({ kind: 'click', broadcastId, subscriberId, url }),
		},
		pages: {
			cap: (entries) => {
				core.pageCap = entries;
			},
		},
		faults: {
			next: (count, kind, faultOptions) => core.addFault(count, kind, faultOptions),
			expireAllTokens: () => tokens.expireAll(),
			forceRateLimitLockout: (accountId) => rateLimiter.lockOut(accountId ?? core.seed.accountId),
		},
		webhooks: {
			register: (callbackUrl, verificationKey, webhookOptions) => webhooks.register(callbackUrl, verificationKey, webhookOptions),
			deliveries: () => webhooks.deliveries(),
			flush: () => webhooks.flush(),
		},
		stop: async () => {
			await webhooks.stop();
			await app.close();
		},
	};
}
