// The control plane under /__sandbox: not AWeber, never rate limited, no token needed, not in the request log.
// Tools, benchmarks and tests use it to reset data, get tokens, read the request log, move the clock,
// inject faults and drive webhooks.
import type { FastifyInstance, FastifyReply } from 'fastify';

import type { SandboxCore } from '../server';
import type { AccountStanding } from '../state';
import { FAULT_KINDS } from '../types';
import type { AnswerRewrite, FaultKind, WebhookEventName } from '../types';

type Body = Record<string, unknown>;

function bodyOf(body: unknown): Body {
	return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

function fail(reply: FastifyReply, status: number, message: string): FastifyReply {
	return reply.code(status).send({ error: message });
}

function optionalNumber(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

function scopesOf(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	if (Array.isArray(value)) return value.map(String);
	return String(value)
		.split(/[\s,]+/)
		.filter((scope) => scope !== '');
}

const WEBHOOK_EVENTS: WebhookEventName[] = ['subscriber.added', 'subscriber.subscribed', 'subscriber.unsubscribed'];

export function registerControlRoutes(control: FastifyInstance, core: SandboxCore): void {
	control.get('/', async () => ({
		apiBaseUrl: core.baseUrl,
		authBaseUrl: core.baseUrl,
		apps: core.apps,
		seed: core.seed,
		now: core.clock.isoNow(),
		timeScale: core.clock.timeScale,
	}));

	control.post('/reset', async (request) => {
		const seedSize = optionalNumber(bodyOf(request.body).seedSize);
		core.reset({ seedSize });
		return { seed: core.seed };
	});

	control.post('/token', async (request) => {
		const body = bodyOf(request.body);
		const clientId = body.clientId === undefined ? undefined : String(body.clientId);
		return core.issueToken(scopesOf(body.scopes), { clientId });
	});

	control.get('/requests', async () => core.requests());
	control.delete('/requests', async (_request, reply) => {
		core.clearRequests();
		return reply.code(204).send();
	});

	control.post('/clock/advance', async (request, reply) => {
		const seconds = optionalNumber(bodyOf(request.body).seconds);
		if (seconds === undefined || seconds < 0) return fail(reply, 400, 'seconds must be a non-negative number');
		core.clock.advance(seconds * 1000);
		core.tick();
		return { now: core.clock.isoNow() };
	});

	control.post('/faults', async (request, reply) => {
		const body = bodyOf(request.body);
		const kind = String(body.kind) as FaultKind;
		const count = optionalNumber(body.count) ?? 1;
		if (!FAULT_KINDS.includes(kind)) return fail(reply, 400, `kind must be one of ${FAULT_KINDS.join(', ')}`);
		if (kind === 'redirect' && typeof body.location !== 'string') return fail(reply, 400, 'a redirect needs a location');
		core.addFault(count, kind, {
			delayMs: optionalNumber(body.delayMs),
			pathPrefix: body.pathPrefix === undefined ? undefined : String(body.pathPrefix),
			method: body.method === undefined ? undefined : String(body.method),
			query: body.query !== null && typeof body.query === 'object' ? (Object.fromEntries(Object.entries(body.query).map(([name, value]) => [name, String(value)])) as Record<string, string>) : undefined,
			status: optionalNumber(body.status),
			location: typeof body.location === 'string' ? body.location : undefined,
			body: body.body,
			rewrite: body.rewrite !== null && typeof body.rewrite === 'object' ? (body.rewrite as AnswerRewrite) : undefined,
		});
		return { ok: true };
	});
	control.post('/faults/expire-tokens', async () => {
		core.tokens.expireAll();
		return { ok: true };
	});
	control.post('/faults/rate-limit-lockout', async (request) => {
		core.rateLimiter.lockOut(optionalNumber(bodyOf(request.body).accountId) ?? core.seed.accountId);
		return { ok: true };
	});

	// The account's standing with AWeber (docs/aweber-behaviour.md#account-standing): held, at its subscriber limit,
	// or refusing some addresses for now. Until the next reset.
	control.post('/account-standing', async (request, reply) => {
		const body = bodyOf(request.body);
		const standing = (body.standing ?? 'good') as AccountStanding;
		if (!['good', 'on-hold', 'subscriber-limit'].includes(standing)) return fail(reply, 400, 'standing must be good, on-hold or subscriber-limit');
		core.setAccountStanding(standing, scopesOf(body.refusedEmails) ?? []);
		return { ok: true };
	});

	control.post('/webhooks', async (request, reply) => {
		const body = bodyOf(request.body);
		if (typeof body.callbackUrl !== 'string' || typeof body.verificationKey !== 'string') {
			return fail(reply, 400, 'callbackUrl and verificationKey are required');
		}
		const events = body.events === undefined ? undefined : scopesOf(body.events);
		try {
			core.webhooks.register(body.callbackUrl, body.verificationKey, { events });
		} catch (error) {
			return fail(reply, 400, error instanceof Error ? error.message : String(error));
		}
		return { ok: true };
	});
	control.get('/webhooks/deliveries', async () => core.webhooks.deliveries());
	control.post('/webhooks/flush', async () => {
		await core.webhooks.flush();
		return { ok: true };
	});

	// Emits a webhook event by hand for a subscriber as it is now (no state change).
	control.post('/events', async (request, reply) => {
		const body = bodyOf(request.body);
		const event = String(body.event) as WebhookEventName;
		if (!WEBHOOK_EVENTS.includes(event)) return fail(reply, 400, `event must be one of ${WEBHOOK_EVENTS.join(', ')}`);
		const subscriber = core.state.subscribers.get(Number(body.subscriberId));
		if (subscriber === undefined) return fail(reply, 404, 'subscriber not found');
		core.emit(event, subscriber);
		return { ok: true };
	});

	// A recipient opens or clicks a sent broadcast now: { kind: 'open' | 'click', broadcastId, subscriberId, url? }.
	control.post('/activity', async (request, reply) => {
		const body = bodyOf(request.body);
		if (body.kind !== 'open' && body.kind !== 'click') return fail(reply, 400, 'kind must be open or click');
		try {
			core.recordEngagement({
				kind: body.kind,
				broadcastId: Number(body.broadcastId),
				subscriberId: Number(body.subscriberId),
				url: typeof body.url === 'string' ? body.url : undefined,
			});
		} catch (error) {
			return fail(reply, 404, (error as Error).message);
		}
		return { ok: true };
	});
}
