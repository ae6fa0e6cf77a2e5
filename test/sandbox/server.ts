// The sandbox's HTTP server: AWeber's resource API under /1.0 (authentication, rate limit, scopes, ws.op
// dispatch, AWeber's error bodies), the OAuth server under /oauth2 and the control plane under /__sandbox.
import { appendFileSync } from 'node:fs';
import { parse as parseQueryString } from 'node:querystring';

import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { advanceBroadcasts, recordEngagement } from './broadcast-lifecycle';
import type { SandboxClock } from './clock';
import { PAGE_CAP, type Query } from './collections';
import { AweberError, RATE_LIMIT_MESSAGE, badRequest, forbidden, notFound, unauthorized } from './errors';
import { Links } from './links';
import { registerOAuthRoutes } from './oauth';
import type { RateLimiter } from './ratelimit';
import { registerAccountRoutes } from './routes/accounts';
import { BETA_PREFIX, LINK_REPORT_PATH, ProblemError, broadcastLinksReport, linkHeader } from './routes/beta';
import { registerBroadcastRoutes } from './routes/broadcasts';
import { registerCampaignRoutes } from './routes/campaigns';
import type { ApiContext, ApiResult, BodyKind, HttpMethod, Operation, OperationTable } from './routes/context';
import { registerControlRoutes } from './routes/control';
import { registerCustomFieldRoutes } from './routes/customFields';
import { registerIntegrationRoutes } from './routes/integrations';
import { registerLandingPageRoutes } from './routes/landingPages';
import { registerListRoutes } from './routes/lists';
import { registerSegmentRoutes } from './routes/segments';
import { registerSubscriberRoutes, webhookPayload } from './routes/subscribers';
import { registerWebFormRoutes } from './routes/webforms';
import { seedState, type SeedResult } from './seed';
import type { AccountStanding, SandboxState, SubscriberRecord } from './state';
import type { TokenStore } from './tokens';
import { FAULT_KINDS } from './types';
import type {
	AnswerRewrite,
	FaultKind,
	FaultOptions,
	RequestLogEntry,
	SandboxApps,
	SeedInfo,
	TokenRecord,
	WebhookEventName,
} from './types';
import { ALL_SCOPES } from './types';
import type { WebhookDispatcher } from './webhooks';

export const API_PREFIX = '/1.0';
export const CONTROL_PREFIX = '/__sandbox';

/** AWeber refuses bodies over 1,000,000 bytes (broadcast create); Fastify's own 413 is mapped to AWeber's 403. */
const BODY_LIMIT = 1_000_000;
const DEFAULT_SLOW_DELAY_MS = 2_000;

interface PendingFault extends FaultOptions {
	kind: FaultKind;
	remaining: number;
	delayMs: number;
}

export interface SandboxCoreParts {
	clock: SandboxClock;
	tokens: TokenStore;
	apps: SandboxApps;
	rateLimiter: RateLimiter;
	webhooks: WebhookDispatcher;
	seedSize: number;
	logFile?: string;
}

/** Everything the server, the control plane and the Sandbox object share. */
export class SandboxCore {
	baseUrl = 'http://127.0.0.1';
	state!: SandboxState;
	seed!: SeedInfo;
	readonly clock: SandboxClock;
	readonly tokens: TokenStore;
	readonly apps: SandboxApps;
	readonly rateLimiter: RateLimiter;
	readonly webhooks: WebhookDispatcher;
	readonly logFile?: string;
	private readonly requestLog: RequestLogEntry[] = [];
	private faults: PendingFault[] = [];
	private seedSize: number;
	/** Most entries per collection page (a test device, collections.ts `PAGE_CAP`); undefined: AWeber's 100. */
	pageCap?: number;

	constructor(parts: SandboxCoreParts) {
		this.clock = parts.clock;
		this.tokens = parts.tokens;
		this.apps = parts.apps;
		this.rateLimiter = parts.rateLimiter;
		this.webhooks = parts.webhooks;
		this.logFile = parts.logFile;
		this.seedSize = parts.seedSize;
		this.loadSeed();
	}

	links(): Links {
		return new Links(this.baseUrl, this.state.account.id);
	}

	/** Fresh seed data, rate-limit state, faults, request log and webhooks. Issued tokens stay valid. */
	reset(options: { seedSize?: number } = {}): void {
		if (options.seedSize !== undefined) this.seedSize = options.seedSize;
		this.loadSeed();
		this.rateLimiter.reset();
		this.faults = [];
		this.pageCap = undefined;
		this.requestLog.length = 0;
		this.webhooks.reset();
	}

	private loadSeed(): void {
		const result: SeedResult = seedState({ seedSize: this.seedSize, now: this.clock.now() });
		this.state = result.state;
		this.seed = result.info;
	}

	/** Lets the sandbox clock move scheduled broadcasts along before anything reads them. */
	tick(): void {
		advanceBroadcasts(this.state, this.clock.now());
	}

	/** A recipient's open or click of a sent broadcast, now (broadcast-lifecycle.ts). */
	recordEngagement(activity: { kind: 'open' | 'click'; broadcastId: number; subscriberId: number; url?: string }): void {
		this.tick();
		recordEngagement(this.state, activity, this.clock.now());
	}

	emit(event: WebhookEventName, subscriber: SubscriberRecord): void {
		this.webhooks.enqueue(event, webhookPayload(this.state, this.links(), subscriber));
	}

	issueToken(scopes: string[] = ALL_SCOPES, options: { clientId?: string } = {}): TokenRecord {
		return this.tokens.issue({
			accountId: this.state.account.id,
			scopes,
			clientId: options.clientId ?? this.apps.confidential.clientId,
		});
	}

	/** How AWeber treats the account's subscriber changes until the next reset (docs/aweber-behaviour.md#account-standing). */
	setAccountStanding(standing: AccountStanding, refusedEmails: string[] = []): void {
		this.state.account.standing = standing;
		this.state.account.refusedEmails = refusedEmails.map((email) => email.toLowerCase());
	}

	addFault(count: number, kind: FaultKind, options: FaultOptions = {}): void {
		if (!FAULT_KINDS.includes(kind)) throw new Error(`Unknown fault kind: ${kind}`);
		if (kind === 'redirect' && typeof options.location !== 'string') throw new Error('A redirect fault needs a location');
		if (!(count > 0)) return;
		this.faults.push({ ...options, kind, remaining: count, delayMs: options.delayMs ?? DEFAULT_SLOW_DELAY_MS });
	}

	/** Takes the first pending fault that applies to the request (path, and method and query when the fault names them), if any. */
	takeFault(path: string, method = 'GET', query: Query = {}): PendingFault | undefined {
		const fault = this.faults.find(
			(candidate) =>
				(candidate.pathPrefix === undefined || path.startsWith(candidate.pathPrefix)) &&
				(candidate.method === undefined || candidate.method.toUpperCase() === method.toUpperCase()) &&
				Object.entries(candidate.query ?? {}).every(([name, value]) => query[name] === value),
		);
		if (fault === undefined) return undefined;
		fault.remaining -= 1;
		if (fault.remaining <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
		return fault;
	}

	requests(): RequestLogEntry[] {
		return this.requestLog.map((entry) => ({ ...entry }));
	}

	clearRequests(): void {
		this.requestLog.length = 0;
	}

	record(entry: RequestLogEntry): void {
		this.requestLog.push(entry);
		if (this.logFile !== undefined && this.logFile !== '') {
			const { body: _body, ...journal } = entry;
			appendFileSync(this.logFile, `${JSON.stringify(journal)}\n`);
		}
	}
}

declare module 'fastify' {
	interface FastifyRequest {
		/** The account a valid access token belongs to, for the request log. */
		sandboxAccount: number | null;
		/** A `rewrite` fault taken by this request: applied to its answer. */
		sandboxRewrite: AnswerRewrite | null;
	}
}

function firstValues(raw: unknown): Query {
	const query: Query = {};
	if (raw === null || typeof raw !== 'object') return query;
	for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
		const first = Array.isArray(value) ? value[0] : value;
		if (first !== undefined && first !== null) query[key] = String(first);
	}
	return query;
}

function pathOf(url: string): string {
	const index = url.indexOf('?');
	return index < 0 ? url : url.slice(0, index);
}

function contentTypeOf(request: FastifyRequest): string | null {
	const header = request.headers['content-type'];
	return header === undefined ? null : header;
}

function bodyKindOf(request: FastifyRequest): BodyKind {
	const contentType = contentTypeOf(request);
	// AWeber reads a body sent without a Content-Type as a form (its Python examples post pre-encoded forms so).
	if (contentType === null) return 'form';
	const essence = contentType.split(';')[0].trim().toLowerCase();
	if (essence === 'application/json') return 'json';
	if (essence === 'application/x-www-form-urlencoded') return 'form';
	return request.body === undefined || request.body === '' ? 'none' : 'other';
}

function sendAweberError(reply: FastifyReply, error: AweberError): FastifyReply {
	return reply.code(error.status).type('application/json').send(JSON.stringify(error.toBody()));
}

/**
 * JSON (empty body allowed), form, a body without a Content-Type as a form (as AWeber reads it), and anything
 * else as a string, so handlers answer AWeber's 400 / 415.
 */
export async function installBodyParsers(scope: FastifyInstance): Promise<void> {
	scope.removeAllContentTypeParsers();
	scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
		const text = String(body);
		if (text.trim() === '') {
			done(null, undefined);
			return;
		}
		try {
			done(null, JSON.parse(text));
		} catch {
			done(badRequest('The request body is not valid JSON.', 'BadRequestError'), undefined);
		}
	});
	await scope.register(formbody);
	scope.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
		done(null, request.headers['content-type'] === undefined ? { ...parseQueryString(String(body)) } : body);
	});
}

interface Authentication {
	accountId: number;
	scopes: string[];
}

/** Seed rule 5: bearer header, form body parameter or query parameter, and only one of them. */
function authenticate(core: SandboxCore, request: FastifyRequest, query: Query): Authentication {
	const candidates: string[] = [];
	const header = request.headers.authorization;
	if (header !== undefined) {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
		if (match === null) throw unauthorized('The Authorization header must carry a Bearer access token.');
		candidates.push(match[1]);
	}
	const body = request.body as Record<string, unknown> | undefined;
	if (bodyKindOf(request) === 'form' && body !== undefined && body.access_token !== undefined) {
		candidates.push(String(body.access_token));
		delete body.access_token;
	}
	if (query.access_token !== undefined) {
		candidates.push(query.access_token);
		delete query.access_token;
	}
	if (candidates.length > 1) {
		throw badRequest(
			'The access token must be sent in only one way per request: Authorization header, form body or query string.',
			'BadRequestError',
		);
	}
	if (candidates.length === 0) throw unauthorized('Missing access token.');
	const verification = core.tokens.verify(candidates[0]);
	if (!verification.ok) {
		const messages = {
			expired: 'The access token has expired.',
			revoked: 'The access token has been revoked.',
			unknown: 'The access token is invalid.',
		};
		throw unauthorized(messages[verification.reason]);
	}
	return { accountId: verification.accountId, scopes: verification.scopes };
}

function resolveOperation(method: HttpMethod, table: OperationTable, query: Query, body: Record<string, unknown>): Operation {
	const fromBody = method === 'POST' ? body['ws.op'] : undefined;
	const wsOp = fromBody !== undefined ? String(Array.isArray(fromBody) ? fromBody[0] : fromBody) : query['ws.op'];
	if (wsOp !== undefined && wsOp !== '') {
		const named = table.named?.[wsOp];
		if (named === undefined) throw badRequest(`No such operation: ${wsOp}`, 'BadRequestError');
		return named;
	}
	if (table.plain === undefined) throw badRequest('No operation name given.');
	return table.plain;
}

const METHODS: HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

function registerResourceApi(app: FastifyInstance, core: SandboxCore): void {
	const tables = new Map<string, Map<HttpMethod, OperationTable>>();
	const routes = {
		add(method: HttpMethod, path: string, table: OperationTable) {
			const byMethod = tables.get(path) ?? new Map<HttpMethod, OperationTable>();
			if (byMethod.has(method)) throw new Error(`Duplicate sandbox route ${method} ${path}`);
			byMethod.set(method, table);
			tables.set(path, byMethod);
		},
	};
	registerAccountRoutes(routes);
	registerIntegrationRoutes(routes);
	registerListRoutes(routes);
	registerCustomFieldRoutes(routes);
	registerSubscriberRoutes(routes);
	registerCampaignRoutes(routes);
	registerBroadcastRoutes(routes);
	registerSegmentRoutes(routes);
	registerWebFormRoutes(routes);
	registerLandingPageRoutes(routes);

	const handle = (method: HttpMethod, table: OperationTable | undefined) => async (request: FastifyRequest, reply: FastifyReply) => {
		core.tick();
		const query = firstValues(request.query);
		if (core.pageCap !== undefined) Object.assign(query, { [PAGE_CAP]: core.pageCap });
		const auth = authenticate(core, request, query);
		request.sandboxAccount = auth.accountId;
		if (core.rateLimiter.hit(auth.accountId) === 'limited') throw forbidden(RATE_LIMIT_MESSAGE);

		const params = (request.params ?? {}) as Record<string, string>;
		if (params.accountId !== undefined && params.accountId !== String(auth.accountId)) {
			throw notFound('Account not found');
		}
		if (core.state.messageEndpointsRetired && /\/campaigns\/[^/]+\/messages(\/|$)/.test(pathOf(request.url))) {
			throw notFound('Resource not found');
		}
		if (table === undefined) {
			throw new AweberError(405, 'MethodNotAllowedError', `Method ${method} is not allowed on this resource.`);
		}
		const rawBody = request.body;
		if (bodyKindOf(request) === 'json' && rawBody !== undefined && (rawBody === null || typeof rawBody !== 'object' || Array.isArray(rawBody))) {
			throw badRequest('The request body must be a JSON object.', 'BadRequestError');
		}
		const body = rawBody !== null && typeof rawBody === 'object' ? { ...(rawBody as Record<string, unknown>) } : {};
		const operation = resolveOperation(method, table, query, body);
		if (!auth.scopes.includes(operation.scope)) throw forbidden(`Missing required scope: ${operation.scope}`);

		const ctx: ApiContext = {
			params,
			query,
			body,
			bodyKind: bodyKindOf(request),
			contentTypeGiven: contentTypeOf(request) !== null,
			accountId: auth.accountId,
			scopes: auth.scopes,
			state: core.state,
			links: core.links(),
			clock: core.clock,
			emit: (event, subscriber) => core.emit(event, subscriber),
		};
		return sendResult(reply, operation.handle(ctx));
	};

	app.register(
		async (api) => {
			await installBodyParsers(api);
			api.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
				if (error instanceof AweberError) return sendAweberError(reply, error);
				if (error.statusCode === 413) return sendAweberError(reply, forbidden('Resource temporarily unavailable'));
				if (error.statusCode !== undefined && error.statusCode < 500) {
					return sendAweberError(reply, new AweberError(error.statusCode, 'BadRequestError', error.message));
				}
				request.log.error(error);
				return sendAweberError(reply, new AweberError(500, 'InternalServerError', 'Internal server error'));
			});
			api.setNotFoundHandler((_request, reply) => sendAweberError(reply, notFound('Resource not found')));
			for (const [path, byMethod] of tables) {
				for (const method of METHODS) {
					api.route({ method, url: path, handler: handle(method, byMethod.get(method)) });
				}
			}
		},
		{ prefix: API_PREFIX },
	);
}

const PROBLEM_TITLES: Record<number, string> = { 400: 'Request Error', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

/** The 2.0-beta API answers its errors as application/problem+json (RFC 7807), AWeber's v1 errors included. */
function sendProblem(reply: FastifyReply, request: FastifyRequest, error: unknown): FastifyReply {
	let problem: ProblemError;
	if (error instanceof ProblemError) problem = error;
	else if (error instanceof AweberError) problem = new ProblemError(error.status, PROBLEM_TITLES[error.status] ?? error.type, error.message);
	else problem = new ProblemError(500, 'Internal Server Error', 'An internal error occurred.');
	return reply
		.code(problem.status)
		.type('application/problem+json')
		.send(JSON.stringify(problem.toBody(pathOf(request.url))));
}

/** The 2.0-beta API: the same tokens, rate limit and scopes as /1.0, UUID identifiers (routes/beta.ts). */
function registerBetaApi(app: FastifyInstance, core: SandboxCore): void {
	app.register(
		async (beta) => {
			beta.setErrorHandler((error, request, reply) => sendProblem(reply, request, error));
			beta.setNotFoundHandler((request, reply) => sendProblem(reply, request, new ProblemError(404, 'Not Found', 'The requested resource could not be found')));
			beta.get(LINK_REPORT_PATH, async (request, reply) => {
				core.tick();
				const query = firstValues(request.query);
				const auth = authenticate(core, request, query);
				request.sandboxAccount = auth.accountId;
				if (core.rateLimiter.hit(auth.accountId) === 'limited') throw forbidden(RATE_LIMIT_MESSAGE);
				if (!auth.scopes.includes('email.read')) throw forbidden('Missing required scope: email.read');
				const page = broadcastLinksReport(core.state, query, `${core.baseUrl}${BETA_PREFIX}${LINK_REPORT_PATH}`);
				const link = linkHeader(page);
				if (link !== undefined) reply.header('link', link);
				return reply.code(200).type('application/json').send(JSON.stringify(page.entries));
			});
		},
		{ prefix: BETA_PREFIX },
	);
}

function sendResult(reply: FastifyReply, result: ApiResult): FastifyReply {
	reply.code(result.status);
	// Node has no reason phrase for AWeber's 209.
	if (result.status === 209) reply.raw.statusMessage = 'Content Modified';
	for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
	if (result.body === undefined) return reply.send();
	return reply.type('application/json').send(JSON.stringify(result.body));
}

function isLogged(url: string): boolean {
	return !url.startsWith(CONTROL_PREFIX);
}

function logEntry(request: FastifyRequest, status: number): RequestLogEntry {
	const entry: RequestLogEntry = {
		time: new Date().toISOString(),
		method: request.method,
		path: pathOf(request.url),
		query: loggedQuery(request),
		contentType: contentTypeOf(request),
		status,
		account: request.sandboxAccount ?? null,
		userAgent: request.headers['user-agent'] ?? null,
	};
	if (request.body !== undefined) entry.body = request.body;
	return entry;
}

/** The query as sent, with a query-string access token masked (tokens are secrets, seed rule 7). */
function loggedQuery(request: FastifyRequest): Query {
	const query = firstValues(request.query);
	if (query.access_token !== undefined) query.access_token = '***';
	return query;
}

/** A JSON answer changed as a `rewrite` fault says; anything else as it is. */
function rewriteAnswer(payload: string, rewrite: AnswerRewrite, requestUrl: string): string {
	let body: unknown;
	try {
		body = JSON.parse(payload);
	} catch {
		return payload;
	}
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return payload;
	const answer = body as Record<string, unknown>;
	if (rewrite.firstEntry && Array.isArray(answer.entries) && answer.entries.length > 0) {
		answer.entries[0] = { ...(answer.entries[0] as Record<string, unknown>), ...rewrite.firstEntry };
	}
	if (rewrite.customFields) {
		for (const subscriber of Array.isArray(answer.entries) ? (answer.entries as Array<Record<string, unknown>>) : [answer]) {
			if (typeof subscriber.custom_fields === 'object' && subscriber.custom_fields !== null) Object.assign(subscriber.custom_fields, rewrite.customFields);
		}
	}
	if (rewrite.dropEntries) delete answer.entries;
	if (rewrite.nextCollectionLink !== undefined) answer.next_collection_link = rewrite.nextCollectionLink === 'self' ? requestUrl : rewrite.nextCollectionLink;
	if (rewrite.totalSize !== undefined) answer.total_size = rewrite.totalSize;
	return JSON.stringify(answer);
}

async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

export async function buildServer(core: SandboxCore): Promise<FastifyInstance> {
	const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, routerOptions: { ignoreTrailingSlash: true } });
	app.decorateRequest('sandboxAccount', null);
	app.decorateRequest('sandboxRewrite', null);

	// Fault injection applies to AWeber's paths (API and OAuth), never to the control plane.
	app.addHook('onRequest', async (request, reply) => {
		if (!isLogged(request.url)) return;
		const fault = core.takeFault(pathOf(request.url), request.method, firstValues(request.query));
		if (fault === undefined) return;
		if (fault.kind === 'rewrite') {
			await fault.beforeAnswer?.();
			request.sandboxRewrite = fault.rewrite ?? {};
			return;
		}
		if (fault.kind === 'redirect') {
			await reply.code(fault.status ?? 307).header('location', fault.location).send();
			return;
		}
		if (fault.kind === 'answer') {
			const text = typeof fault.body === 'string';
			await reply
				.code(fault.status ?? 200)
				.header('content-type', text ? 'text/html; charset=utf-8' : 'application/json')
				.send(text ? fault.body : JSON.stringify(fault.body === undefined ? {} : fault.body));
			return;
		}
		if (fault.kind === 'slow') {
			await sleep(fault.delayMs);
			return;
		}
		if (fault.kind === 'reset') {
			core.record(logEntry(request, 0));
			reply.hijack();
			request.raw.socket.destroy();
			return;
		}
		const error =
			fault.kind === '503'
				? new AweberError(503, 'ServiceUnavailableError', 'Service temporarily unavailable. Please try again later.')
				: new AweberError(500, 'InternalServerError', 'An internal error occurred.');
		await sendAweberError(reply, error);
	});

	app.addHook('onSend', async (request, reply, payload) => {
		// AWeber's Date header is AWeber's clock, the one its timestamps are written with.
		if (isLogged(request.url)) reply.header('date', new Date(core.clock.now()).toUTCString());
		if (request.sandboxRewrite === null) return payload;
		if (request.sandboxRewrite.date !== undefined) reply.header('date', request.sandboxRewrite.date);
		const location = reply.getHeader('location');
		if (request.sandboxRewrite.upperCaseLocationScheme && typeof location === 'string') {
			reply.header('location', location.replace(/^https?:/i, (scheme) => scheme.toUpperCase()));
		}
		if (typeof payload !== 'string') return payload;
		return rewriteAnswer(payload, request.sandboxRewrite, `${core.baseUrl}${request.url}`);
	});

	app.addHook('onResponse', async (request, reply) => {
		if (isLogged(request.url)) core.record(logEntry(request, reply.statusCode));
	});

	registerResourceApi(app, core);
	registerBetaApi(app, core);
	registerOAuthRoutes(app, {
		clock: core.clock,
		tokens: core.tokens,
		apps: core.apps,
		get account() {
			return core.state.account;
		},
	});
	app.register(async (control) => {
		await installBodyParsers(control);
		registerControlRoutes(control, core);
	}, { prefix: CONTROL_PREFIX });
	app.setNotFoundHandler((_request, reply) => sendAweberError(reply, notFound('Resource not found')));
	return app;
}
