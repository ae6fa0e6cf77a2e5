// The control plane: fault injection (503, 500, reset connection, slow), tokens, clock, reset, request log and
// webhooks over HTTP, and the webhook events that resource API calls produce.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { request } from 'undici';

import { accountPath, call, listPath, useSandbox } from './api-test-client';
import type { Sandbox, TokenRecord } from './types';

let sandbox: Sandbox;
let token: string;

useSandbox((started, fresh) => {
	sandbox = started;
	token = fresh;
});

async function control(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
	const response = await request(`${sandbox.apiBaseUrl}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.body.text();
	return { status: response.statusCode, json: () => JSON.parse(text) };
}

describe('fault injection', () => {
	it('answers the next N requests with 503 in AWeber error shape, then normally', async () => {
		sandbox.faults.next(2, '503');
		const first = await call(sandbox, 'GET', accountPath(sandbox), { token });
		expect(first.status).toBe(503);
		expect(first.json().error).toMatchObject({ status: 503, type: 'ServiceUnavailableError', documentation_url: 'https://api.aweber.com/#serviceunavailable' });
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(503);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(200);
	});

	it('answers 500 InternalServerError', async () => {
		sandbox.faults.next(1, '500');
		const response = await call(sandbox, 'GET', accountPath(sandbox), { token });
		expect(response.status).toBe(500);
		expect(response.json().error).toMatchObject({ status: 500, type: 'InternalServerError' });
	});

	it('resets the connection', async () => {
		sandbox.faults.next(1, 'reset');
		await expect(call(sandbox, 'GET', accountPath(sandbox), { token })).rejects.toThrow();
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(200);
		expect(sandbox.requests().map((entry) => entry.status)).toEqual([0, 200]);
	});

	it('answers slowly but correctly', async () => {
		sandbox.faults.next(1, 'slow', { delayMs: 30 });
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(200);
	});

	it('applies only to paths under pathPrefix, including the OAuth endpoints', async () => {
		sandbox.faults.next(1, '503', { pathPrefix: `/1.0${listPath(sandbox, sandbox.seed.lists.newsletter)}` });
		sandbox.faults.next(1, '500', { pathPrefix: '/oauth2/token' });
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(200);
		expect((await call(sandbox, 'GET', listPath(sandbox, sandbox.seed.lists.newsletter), { token })).status).toBe(503);
		expect((await call(sandbox, 'GET', listPath(sandbox, sandbox.seed.lists.newsletter), { token })).status).toBe(200);
		const tokenRequest = await request(`${sandbox.authBaseUrl}/oauth2/token`, { method: 'POST' });
		await tokenRequest.body.text();
		expect(tokenRequest.statusCode).toBe(500);
	});

	it('never touches the control plane', async () => {
		sandbox.faults.next(1, '503');
		expect((await control('GET', '/')).status).toBe(200);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(503);
	});

	it('is available over HTTP', async () => {
		expect((await control('POST', '/faults', { kind: '503', count: 1 })).status).toBe(200);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(503);
		expect((await control('POST', '/faults', { kind: 'explode' })).status).toBe(400);
		expect((await control('POST', '/faults/expire-tokens')).status).toBe(200);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(401);
	});
});

describe('account standing', () => {
	const add = async (email: string, json: Record<string, unknown> = {}) =>
		await call(sandbox, 'POST', `${listPath(sandbox, sandbox.seed.lists.newsletter)}/subscribers`, { token, json: { email, ...json } });

	it('POST /account-standing puts the account on hold: every change to subscribers is refused with 403, until reset', async () => {
		expect((await control('POST', '/account-standing', { standing: 'on-hold' })).status).toBe(200);
		const refused = await add('held@example.com');
		expect(refused.status).toBe(403);
		expect(refused.json().error).toMatchObject({ status: 403, type: 'ForbiddenError', message: expect.stringMatching(/on hold/) });
		expect((await add('ada.lovelace@example.com', { update_existing: 'true' })).status).toBe(403);
		sandbox.reset();
		expect((await add('held@example.com')).status).toBe(201);
	});

	it('at the subscriber limit refuses new subscribers but not updates; refused addresses "cannot be accepted at this time"', async () => {
		await control('POST', '/account-standing', { standing: 'subscriber-limit' });
		expect((await add('new@example.com')).json().error.message).toMatch(/Subscriber limit reached/);
		expect((await add('ada.lovelace@example.com', { update_existing: 'true' })).status).toBe(201);
		await control('POST', '/account-standing', { refusedEmails: ['Not.Now@example.com'] });
		const notNow = await add('not.now@example.com');
		expect(notNow.status).toBe(403);
		expect(notNow.json().error.message).toBe('This email address cannot be accepted at this time.');
		expect((await add('welcome@example.com')).status).toBe(201);
		expect((await control('POST', '/account-standing', { standing: 'frozen' })).status).toBe(400);
	});
});

describe('answers AWeber did not promise', () => {
	it('redirect: a 3xx with the Location asked for, before acting', async () => {
		expect((await control('POST', '/faults', { kind: 'redirect', status: 308, location: 'http://127.0.0.1:9/elsewhere' })).status).toBe(200);
		const answer = await call(sandbox, 'GET', accountPath(sandbox), { token });
		expect(answer.status).toBe(308);
		expect(answer.headers.location).toBe('http://127.0.0.1:9/elsewhere');
		expect((await control('POST', '/faults', { kind: 'redirect' })).status).toBe(400);
	});

	it('answer: a 200 whose body is not the resource, JSON or HTML, only for the method and query asked for', async () => {
		sandbox.faults.next(1, 'answer', { body: '<html>maintenance</html>', method: 'GET', query: { 'ws.start': '100' } });
		expect((await call(sandbox, 'GET', `${listPath(sandbox, sandbox.seed.lists.bulk)}/subscribers`, { token })).json()).toHaveProperty('entries');
		const html = await call(sandbox, 'GET', `${listPath(sandbox, sandbox.seed.lists.bulk)}/subscribers`, { token, query: { 'ws.start': '100' } });
		expect(html.status).toBe(200);
		expect(html.text).toBe('<html>maintenance</html>');
	});

	it('rewrite: the request is carried out and its page changed (entries, next link, size, first entry)', async () => {
		const path = `${listPath(sandbox, sandbox.seed.lists.bulk)}/subscribers`;
		sandbox.faults.next(1, 'rewrite', { rewrite: { dropEntries: true, totalSize: 1e12 } });
		expect(Object.keys((await call(sandbox, 'GET', path, { token })).json()).filter((key) => ['entries', 'total_size'].includes(key))).toEqual(['total_size']);
		sandbox.faults.next(1, 'rewrite', { rewrite: { nextCollectionLink: 'self', firstEntry: { subscribed_at: '2999-01-01T00:00:00+00:00' } } });
		const page = (await call(sandbox, 'GET', path, { token, query: { 'ws.start': '100' } })).json();
		expect(page.next_collection_link).toBe(`${sandbox.apiBaseUrl}/1.0${path}?ws.start=100`);
		expect(page.entries[0].subscribed_at).toBe('2999-01-01T00:00:00+00:00');
	});

	it("answers carry the sandbox clock's Date, as AWeber's carry AWeber's", async () => {
		sandbox.clock.advance(24 * 3600 * 1000);
		const answer = await call(sandbox, 'GET', accountPath(sandbox), { token });
		expect(Math.abs(Date.parse(String(answer.headers.date)) - sandbox.clock.now())).toBeLessThan(5_000);
	});
});

describe('control endpoints', () => {
	it('POST /token issues a token for the seeded account with the scopes asked for', async () => {
		const record = (await control('POST', '/token', { scopes: ['list.read'] })).json() as TokenRecord;
		expect(record).toMatchObject({ token_type: 'bearer', expires_in: 3600, access_token: expect.any(String), refresh_token: expect.any(String) });
		expect((await call(sandbox, 'GET', `${accountPath(sandbox)}/lists`, { token: record.access_token })).status).toBe(200);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token: record.access_token })).status).toBe(403);
		const all = (await control('POST', '/token')).json() as TokenRecord;
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token: all.access_token })).status).toBe(200);
	});

	it('POST /clock/advance moves sandbox time: a token expires after an hour', async () => {
		expect((await control('POST', '/clock/advance', { seconds: 3599 })).status).toBe(200);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(200);
		await control('POST', '/clock/advance', { seconds: 2 });
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(401);
		expect((await control('POST', '/clock/advance', { seconds: -1 })).status).toBe(400);
	});

	it('POST /reset reloads the seed with the size asked for', async () => {
		await call(sandbox, 'DELETE', `${listPath(sandbox, sandbox.seed.lists.newsletter)}/subscribers/${sandbox.seed.subscribers.subscribed}`, { token });
		const reset = await control('POST', '/reset', { seedSize: 3 });
		expect(reset.json().seed.lists.bulk).toBe(2003);
		const bulk = (await call(sandbox, 'GET', listPath(sandbox, sandbox.seed.lists.bulk), { token })).json();
		expect(bulk.total_subscribers).toBe(3);
		expect((await call(sandbox, 'GET', `${listPath(sandbox, sandbox.seed.lists.newsletter)}/subscribers/${sandbox.seed.subscribers.subscribed}`, { token })).status).toBe(200);
	});

	it('GET and DELETE /requests read and clear the request log', async () => {
		await call(sandbox, 'GET', accountPath(sandbox), { token, query: { 'ws.size': '1' } });
		const log = (await control('GET', '/requests')).json();
		expect(log).toEqual([expect.objectContaining({ method: 'GET', path: '/1.0/accounts/1234567', status: 200, account: 1234567 })]);
		expect((await control('DELETE', '/requests')).status).toBe(204);
		expect((await control('GET', '/requests')).json()).toEqual([]);
	});
});

interface Receiver {
	url: string;
	bodies: Array<Record<string, unknown>>;
	close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
	const bodies: Array<Record<string, unknown>> = [];
	const server: Server = createServer((incoming, response) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
			response.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/`,
		bodies,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

describe('webhook events from the resource API', () => {
	let receiver: Receiver;

	beforeEach(async () => {
		receiver = await startReceiver();
		sandbox.webhooks.register(receiver.url, 'key');
	});

	afterEach(async () => {
		await receiver.close();
	});

	type EventData = { event: string; payload: Record<string, unknown> };
	const events = () => receiver.bodies.flatMap((body) => body.data as EventData[]);

	it('announce an added subscriber as added and subscribed, with AWeber payload fields', async () => {
		const added = await call(sandbox, 'POST', `${listPath(sandbox, sandbox.seed.lists.newsletter)}/subscribers`, {
			token,
			json: { email: 'hooked@example.com', name: 'Hooked', custom_fields: { Plan: 'pro' }, tags: ['hook'] },
		});
		await sandbox.webhooks.flush();
		expect(events().map((event) => event.event)).toEqual(['subscriber.added', 'subscriber.subscribed']);
		const payload = events()[0].payload;
		expect(payload).toMatchObject({
			account: sandbox.seed.accountUuid,
			email: 'hooked@example.com',
			name: 'Hooked',
			status: 'subscribed',
			custom_fields: { Company: null, Plan: 'pro', Birthday: null },
			tags: ['hook'],
			subscription_method: 'api',
			links: { account: `${sandbox.apiBaseUrl}/1.0${accountPath(sandbox)}`, subscriber: added.headers.location },
		});
		expect(payload.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(payload.list).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('announce only added for an unconfirmed subscriber, and unsubscribed on unsubscribe and move', async () => {
		await call(sandbox, 'POST', `${listPath(sandbox, sandbox.seed.lists.empty)}/subscribers`, { token, json: { email: 'pending@example.com' } });
		await call(sandbox, 'PATCH', `${listPath(sandbox, sandbox.seed.lists.newsletter)}/subscribers/${sandbox.seed.subscribers.subscribed}`, {
			token,
			json: { status: 'unsubscribed' },
		});
		await call(sandbox, 'POST', `${listPath(sandbox, sandbox.seed.lists.newsletter)}/subscribers/100002`, {
			token,
			form: { 'ws.op': 'move', list_link: `${sandbox.apiBaseUrl}/1.0${listPath(sandbox, sandbox.seed.lists.empty)}` },
		});
		await sandbox.webhooks.flush();
		expect(events().map((event) => `${event.event} ${event.payload.email}`)).toEqual([
			'subscriber.added pending@example.com',
			'subscriber.unsubscribed ada.lovelace@example.com',
			'subscriber.unsubscribed grace.hopper@example.com',
			'subscriber.added grace.hopper@example.com',
			'subscriber.subscribed grace.hopper@example.com',
		]);
	});

	it('can be emitted by hand over the control plane', async () => {
		const response = await control('POST', '/events', { event: 'subscriber.subscribed', subscriberId: sandbox.seed.subscribers.subscribed });
		expect(response.status).toBe(200);
		expect((await control('POST', '/webhooks/flush')).status).toBe(200);
		expect(events()).toEqual([expect.objectContaining({ event: 'subscriber.subscribed' })]);
		const deliveries = (await control('GET', '/webhooks/deliveries')).json();
		expect(deliveries).toEqual([expect.objectContaining({ callbackUrl: receiver.url, status: 200 })]);
		expect((await control('POST', '/events', { event: 'subscriber.deleted', subscriberId: 1 })).status).toBe(400);
	});
});
