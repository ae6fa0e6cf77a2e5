// Types shared by every sandbox module (server, OAuth, webhooks) and by the tests that use the sandbox.
import type { SandboxClock } from './clock';
import type { AccountStanding } from './state';

export type { SandboxClock };

export interface RateLimitOptions {
	requestsPerWindow: number;
	windowSeconds: number;
	lockoutSeconds: number;
}

export interface SandboxOptions {
	/** 0 = a free port (the default, for tests). */
	port?: number;
	/** Sandbox time runs this many times faster than real time. Default 1. */
	timeScale?: number;
	/** Subscribers on the big list ("Bulk"). Default 250; benchmarks use 10000. */
	seedSize?: number;
	/** Default 120 requests / 60 s, 60 s lockout (AWeber's limit). */
	rateLimit?: RateLimitOptions;
	/** Default 3600 (AWeber: about two hours; one hour here). */
	tokenLifetimeSeconds?: number;
	/** Default true: a used refresh token stops working. */
	rotateRefreshTokens?: boolean;
	/** Default process.env.AWEBER_SANDBOX_LOG: append one JSON line per request. */
	logFile?: string;
}

export interface TokenRecord {
	access_token: string;
	refresh_token: string;
	token_type: 'bearer';
	expires_in: number;
	scope?: string;
}

export interface SandboxConfidentialApp {
	clientId: string;
	clientSecret: string;
	redirectUris: string[];
}

export interface SandboxPublicApp {
	clientId: string;
	redirectUris: string[];
}

export interface SandboxApps {
	confidential: SandboxConfidentialApp;
	public: SandboxPublicApp;
}

export interface RequestLogEntry {
	time: string;
	method: string;
	path: string;
	query: Record<string, string>;
	contentType: string | null;
	status: number;
	account: number | null;
	userAgent: string | null;
	/** Parsed body, kept in memory only (never written to the journal file). */
	body?: unknown;
}

export type WebhookEventName = 'subscriber.added' | 'subscriber.subscribed' | 'subscriber.unsubscribed';

export interface DeliveryLogEntry {
	deliveryId: string;
	callbackUrl: string;
	/** 1 for the first try, then 2, 3, ... for retries of the same delivery. */
	attempt: number;
	/** Sandbox time of the attempt, ISO 8601. */
	time: string;
	/** HTTP status the callback answered, or null when the connection failed. */
	status: number | null;
	error?: string;
	events: WebhookEventName[];
	headers: Record<string, string>;
	body: string;
}

export interface SeedInfo {
	accountId: number;
	accountUuid: string;
	company: string;
	lists: { newsletter: number; customers: number; bulk: number; empty: number };
	integrations: { facebook: number; twitter: number; paypal: number };
	broadcasts: { draft: number; scheduled: number; sent: number };
	/** Campaign path ids with their type letter, as AWeber's paths use them (e.g. 'b5001'). */
	campaigns: { broadcast: string; followUp: string };
	messages: { broadcast: number; followUp: number };
	segments: { active: number; splitTest: number };
	webForms: { newsletter: number };
	splitTests: { newsletter: number };
	splitTestComponents: { first: string; second: string };
	landingPages: { newsletter: string };
	customFields: { company: number; plan: number; birthday: number; customersCompany: number; customersPlan: number };
	/** Subscriber ids on the Newsletter list, one per status. */
	subscribers: { subscribed: number; unconfirmed: number; unsubscribed: number };
}

export interface FaultOptions {
	delayMs?: number;
	pathPrefix?: string;
	/** Only requests whose query has these values (e.g. `{ 'ws.start': '100' }` for a collection's second page). */
	query?: Record<string, string>;
	/** Only requests with this method. */
	method?: string;
	/** `redirect`: the status (301, 302, 303, 307 or 308; default 307) and the `Location` to send. */
	status?: number;
	location?: string;
	/** `answer`: what to answer instead of acting (status default 200); a string is sent as text/html. */
	body?: unknown;
	/** `rewrite`: how to change the answer after the request was carried out. */
	rewrite?: AnswerRewrite;
	/**
	 * `rewrite`, in-process only: run when the request arrives, before it is carried out. A change AWeber's data
	 * undergoes between two requests of a read (a subscriber deleted between two page reads).
	 */
	beforeAnswer?: () => Promise<void> | void;
}

/**
 * Changes to a JSON answer the sandbox gives after acting on the request: answers AWeber did not promise, for
 * tests of what the package does with them.
 */
export interface AnswerRewrite {
	/** Leave `entries` out of a collection page. */
	dropEntries?: boolean;
	/** Set `next_collection_link`: `'self'` is the request's own URL. */
	nextCollectionLink?: string;
	/** Set `total_size`. */
	totalSize?: number;
	/** Set a field of the first entry (e.g. a timestamp far in the future). */
	firstEntry?: Record<string, unknown>;
	/** Set custom field values of the subscriber answered (or of each entry): values AWeber's own fields never hold. */
	customFields?: Record<string, unknown>;
	/** Send this `Date` header instead of the sandbox clock's (an answer whose clock is off). */
	date?: string;
	/** Spell the `Location` header's scheme in capitals (`HTTP://…`): the same link, written as URLs allow. */
	upperCaseLocationScheme?: boolean;
}

/**
 * `503`, `500`, `reset`, `slow`: the network or AWeber failing. `redirect`: a 3xx with a `Location` (another origin,
 * for instance). `answer`: a body that is not the resource, without acting. `rewrite`: the request is carried out and
 * its answer changed.
 */
export type FaultKind = '503' | '500' | 'reset' | 'slow' | 'redirect' | 'answer' | 'rewrite';

export const FAULT_KINDS: FaultKind[] = ['503', '500', 'reset', 'slow', 'redirect', 'answer', 'rewrite'];

export interface Sandbox {
	apiBaseUrl: string;
	authBaseUrl: string;
	port: number;
	clock: SandboxClock;
	apps: SandboxApps;
	seed: SeedInfo;
	/** Same as POST /__sandbox/token: a token for the seeded account without the browser flow. */
	issueToken(scopes?: string[], options?: { clientId?: string }): TokenRecord;
	requests(): RequestLogEntry[];
	clearRequests(): void;
	/**
	 * AWeber's importer (its web app's Subscribers > Add Subscribers, not the API): every address added to the list at
	 * once, all dated the current second, subscription_method `import`. The new subscribers' ids.
	 */
	importSubscribers(listId: number, emails: string[]): number[];
	reset(options?: { seedSize?: number }): void;
	/** How AWeber treats the account's subscriber changes until the next reset (docs/aweber-behaviour.md#account-standing). */
	setAccountStanding(standing: AccountStanding, options?: { refusedEmails?: string[] }): void;
	/** Which spellings of hourly_/daily_ unsubscribe statistics the stats entry answers until the next reset (default both). */
	statisticNames(accepted: Array<'unsubscribed' | 'unsubscribes'>): void;
	/** Until the next reset, `…/campaigns/{c}/messages…` answers 404, as AWeber may now that its reference no longer lists it. */
	retireMessageEndpoints(): void;
	faults: {
		next(count: number, kind: FaultKind, options?: FaultOptions): void;
		expireAllTokens(): void;
		forceRateLimitLockout(accountId?: number): void;
	};
	/** A recipient opening or clicking a sent broadcast now (sandbox clock), as AWeber records it. */
	activity: {
		open(broadcastId: number, subscriberId: number): void;
		click(broadcastId: number, subscriberId: number, url: string): void;
	};
	pages: {
		/**
		 * Serve at most `entries` per collection page (undefined: AWeber's 100), so a few seeded entries span
		 * several offset or cursor pages. A test device, cleared by reset().
		 */
		cap(entries: number | undefined): void;
	};
	webhooks: {
		register(callbackUrl: string, verificationKey: string, options?: { events?: string[] }): void;
		deliveries(): DeliveryLogEntry[];
		/** Deliver the pending batch now. */
		flush(): Promise<void>;
	};
	stop(): Promise<void>;
}

export const ALL_SCOPES = [
	'account.read',
	'landing-page.read',
	'list.read',
	'list.write',
	'subscriber.read',
	'subscriber.write',
	'email.read',
	'email.write',
];
