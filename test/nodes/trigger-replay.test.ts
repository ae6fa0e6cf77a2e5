// The AWeber Webhook Trigger tried as an attacker would: captured deliveries re-sent under other ids, and a trigger whose
// credential has no verification key (it must fail closed unless the user opts in to the insecure option).
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { useTestbed } from '../harness/aweber';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook';
import { call, listPath } from '../sandbox/api-test-client';
import type { DeliveryLogEntry } from '../sandbox/types';
import { WEBHOOK_CONTENT_TYPE, signWebhook } from '../sandbox/webhooks';
import { ALL_EVENTS, KEY } from './webhook-trigger.helpers';

const INSECURE_OPTION = { acceptUnsignedDeliveries: true };

/** Posts exactly these headers and body, as someone holding a copy of a delivery would. */
async function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; answer: unknown }> {
	const response = await request(url, { method: 'POST', headers: { 'content-type': WEBHOOK_CONTENT_TYPE, ...headers }, body });
	const text = await response.body.text();
	return { status: response.statusCode, answer: text ? JSON.parse(text) : undefined };
}

/** A captured delivery's headers, re-sent with another delivery id header, or none (null). */
function resent(captured: DeliveryLogEntry, deliveryId: string | null): Record<string, string> {
	const headers: Record<string, string> = { date: captured.headers.Date, 'aweber-signature': captured.headers['AWeber-Signature'] };
	if (deliveryId !== null) headers['aweber-delivery-id'] = deliveryId;
	return headers;
}

const DUPLICATE = { status: 200, answer: { received: true, duplicate: true } };

describe('AWeber Webhook Trigger under attack', () => {
	// Real-time sandbox clock: deliveries carry the sandbox's Date, which the trigger checks against its own clock.
	const bed = useTestbed({ timeScale: 1, credential: { webhookVerificationSecret: KEY } });
	let token: string;
	const receivers: WebhookReceiver[] = [];
	const servers: Server[] = [];

	beforeAll(() => {
		token = bed.sandbox.issueToken().access_token;
	});
	afterEach(async () => {
		await Promise.all(receivers.splice(0).map(async (receiver) => await receiver.close()));
		await Promise.all(
			servers.splice(0).map(async (server) => {
				server.closeAllConnections();
				await new Promise((resolve) => server.close(resolve));
			}),
		);
	});

	async function receiver(parameters: IDataObject, credentialId = bed.credentialId): Promise<WebhookReceiver> {
		const started = await startWebhookReceiver(bed.harness, { type: 'aWeberSubscriberTrigger', credentialId, parameters });
		receivers.push(started);
		return started;
	}

	/** Subscribes someone; the sandbox sends AWeber's signed delivery to `callbackUrl` now. Returns its log entries. */
	async function aweberDelivers(callbackUrl: string, email = 'ada@example.com'): Promise<DeliveryLogEntry[]> {
		bed.sandbox.webhooks.register(callbackUrl, KEY);
		const response = await call(bed.sandbox, 'POST', `${listPath(bed.sandbox, bed.sandbox.seed.lists.customers)}/subscribers`, {
			token,
			json: { email },
		});
		expect(response.status).toBe(201);
		await bed.sandbox.webhooks.flush();
		return bed.sandbox.webhooks.deliveries();
	}

	describe('a captured signed delivery, replayed within the Date window', () => {
		let target: WebhookReceiver;
		let captured: DeliveryLogEntry;

		beforeEach(async () => {
			target = await receiver({ events: ALL_EVENTS });
			[captured] = await aweberDelivers(target.url);
			expect(captured.status).toBe(200);
			expect(target.executions()).toHaveLength(1);
		});

		it('runs once when re-sent five times, each under a new AWeber-Delivery-ID', async () => {
			for (let attempt = 0; attempt < 5; attempt++) {
				expect(await post(target.url, resent(captured, randomUUID()), captured.body)).toEqual(DUPLICATE);
			}
			expect(target.executions()).toHaveLength(1);
		});

		it('runs once when re-sent without an AWeber-Delivery-ID, or with an empty one', async () => {
			expect(await post(target.url, resent(captured, null), captured.body)).toEqual(DUPLICATE);
			expect(await post(target.url, resent(captured, ''), captured.body)).toEqual(DUPLICATE);
			expect(await post(target.url, resent(captured, '   '), captured.body)).toEqual(DUPLICATE);
			expect(target.executions()).toHaveLength(1);
		});

		it('runs once when the copy is disguised: signature hex in upper case, whitespace appended to the body', async () => {
			const upperCase = { ...resent(captured, randomUUID()), 'aweber-signature': captured.headers['AWeber-Signature'].toUpperCase().replace('SHA256=', 'sha256=') };
			expect(await post(target.url, upperCase, captured.body)).toEqual(DUPLICATE);
			// AWeber signs the body with trailing whitespace stripped, so this copy still carries a valid signature.
			expect(await post(target.url, resent(captured, randomUUID()), `${captured.body} \r\n`)).toEqual(DUPLICATE);
			expect(target.executions()).toHaveLength(1);
		});

		it('adds nothing to the stored log, so replays cannot push genuine deliveries out of it', async () => {
			const before = target.workflow.nodeStaticData.deliveryLog;
			for (let attempt = 0; attempt < 3; attempt++) await post(target.url, resent(captured, randomUUID()), captured.body);
			expect(target.workflow.nodeStaticData.deliveryLog).toEqual(before);
		});

		it('keeps the signed content and the id for at least the Date window', () => {
			const [entry] = target.workflow.nodeStaticData.deliveryLog as string[];
			// Its expiry (s, base 36), and short digests of its id and of its signed content.
			expect(entry).toMatch(/^[0-9a-z]+:[\w-]{11}:[\w-]{11}$/);
			// Kept past the moment its Date leaves the 5-minute window, when the Date check takes over.
			expect(parseInt(entry.split(':')[0], 36) * 1000).toBeGreaterThanOrEqual(Date.parse(captured.headers.Date) + 5 * 60_000);
		});
	});

	it('refuses an AWeber-Delivery-ID far longer than AWeber uses, naming the header', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		const body = JSON.stringify({ client_id: bed.sandbox.apps.confidential.clientId, data: [{ event: 'subscriber.added', payload: {} }] });
		const date = new Date().toUTCString();
		const headers = { date, 'aweber-signature': signWebhook(KEY, date, body), 'aweber-delivery-id': 'x'.repeat(201) };
		expect(await post(target.url, headers, body)).toEqual({ status: 400, answer: { error: expect.stringMatching(/AWeber-Delivery-ID header is longer than 200/) } });
		expect(target.executions()).toEqual([]);
	});

	it('runs the events of a signed batch and skips its entries that are no event (null, a number, no event name or one that is not text)', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		const wanted = { event: 'subscriber.added', payload: { email: 'kept@example.com' } };
		const data = [null, 7, { payload: {} }, { event: 42, payload: {} }, { event: ['subscriber.added'], payload: {} }, wanted];
		const body = JSON.stringify({ client_id: bed.sandbox.apps.confidential.clientId, data });
		const date = new Date().toUTCString();
		const headers = { date, 'aweber-signature': signWebhook(KEY, date, body), 'aweber-delivery-id': randomUUID() };
		expect(await post(target.url, headers, body)).toEqual({ status: 200, answer: { received: true, events: 1 } });
		expect(target.executions()).toEqual([[expect.objectContaining({ event: 'subscriber.added', subscriber: wanted.payload, verified: true })]]);
	});

	it("runs once for AWeber's genuine retry (same id, new Date and signature), and once for a replay of that retry under a new id", async () => {
		const target = await receiver({ events: ALL_EVENTS });
		// A proxy that passes the first attempt on to the trigger but tells AWeber it failed, as when n8n's answer is
		// lost on the way back: AWeber then retries the delivery it believes failed.
		let attempts = 0;
		const proxy = createServer((incoming, outgoing) => {
			const chunks: Buffer[] = [];
			incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
			incoming.on('end', () => {
				attempts++;
				const forwarded = Object.fromEntries(
					['content-type', 'date', 'aweber-delivery-id', 'aweber-signature'].map((name) => [name, String(incoming.headers[name])]),
				);
				void request(target.url, { method: 'POST', headers: forwarded, body: Buffer.concat(chunks) })
					.then(async (answer) => ({ status: answer.statusCode, text: await answer.body.text() }))
					.catch((error: Error) => ({ status: 502, text: JSON.stringify({ error: error.message }) }))
					.then(({ status, text }) => {
						outgoing.writeHead(attempts === 1 ? 504 : status, { 'content-type': 'application/json' });
						outgoing.end(text);
					});
			});
		});
		servers.push(proxy);
		await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
		const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;

		await aweberDelivers(proxyUrl);
		// The sandbox retries 30 s later (test/sandbox/webhooks.ts), with a fresh Date and signature.
		bed.sandbox.clock.advance(30_000);
		await bed.sandbox.webhooks.flush();
		const [first, retry] = bed.sandbox.webhooks.deliveries();
		expect(first).toMatchObject({ attempt: 1, status: 504 });
		expect(retry).toMatchObject({ attempt: 2, status: 200, deliveryId: first.deliveryId });
		expect(retry.headers.Date).not.toBe(first.headers.Date);
		expect(target.calls.map((received) => received.answer)).toEqual([{ received: true, events: 2 }, { received: true, duplicate: true }]);

		expect(await post(target.url, resent(retry, randomUUID()), retry.body)).toEqual(DUPLICATE);
		expect(await post(target.url, resent(retry, null), retry.body)).toEqual(DUPLICATE);
		expect(target.executions()).toHaveLength(1);
	});

	describe('fails closed when the credential has no verification key', () => {
		for (const [label, key] of [
			['empty', ''],
			['only whitespace', ' \t '],
		] as const) {
			it(`(${label}) refuses AWeber's own delivery and a forged one with 401, starting nothing`, async () => {
				const target = await receiver({ events: ALL_EVENTS }, bed.connect({ webhookVerificationSecret: key }));
				const [genuine] = await aweberDelivers(target.url);
				expect(genuine.status).toBe(401);
				const forged = JSON.stringify({ client_id: bed.sandbox.apps.confidential.clientId, data: [{ event: 'subscriber.added', payload: { email: 'eve@example.com' } }] });
				expect(await post(target.url, { 'aweber-delivery-id': randomUUID() }, forged)).toEqual({
					status: 401,
					answer: { error: expect.stringMatching(/no verification key/) },
				});
				expect(target.calls.map((received) => received.status)).toEqual([401, 401]);
				expect(target.executions()).toEqual([]);
			});

			it(`(${label}) cannot be activated, and the error says where to find the key`, async () => {
				const target = await receiver({ events: ALL_EVENTS }, bed.connect({ webhookVerificationSecret: key }));
				const message = /"Webhook Verification Key" is empty.*labs\.aweber\.com.*"Accept Unsigned Deliveries \(Insecure, for Testing Only\)"/;
				await expect(target.lifecycle('checkExists')).rejects.toThrow(message);
				await expect(target.lifecycle('create')).rejects.toThrow(message);
				// Refused before anything reaches AWeber.
				expect(bed.sandbox.requests()).toEqual([]);
			});
		}

		it('with "Accept Unsigned Deliveries (Insecure, for Testing Only)" on, activates and accepts deliveries, flagged verified: false', async () => {
			const target = await receiver({ events: ALL_EVENTS, options: INSECURE_OPTION }, bed.connect({ webhookVerificationSecret: '' }));
			expect(await target.lifecycle('checkExists')).toBe(false);
			expect(await target.lifecycle('create')).toBe(true);
			const body = JSON.stringify({ client_id: bed.sandbox.apps.confidential.clientId, data: [{ event: 'subscriber.added', payload: { email: 'test@example.com' } }] });
			expect(await post(target.url, { 'aweber-delivery-id': randomUUID(), date: new Date().toUTCString() }, body)).toMatchObject({ status: 200 });
			expect(target.executions()).toEqual([[expect.objectContaining({ event: 'subscriber.added', verified: false })]]);
		});

		it('with the insecure option on, a copy of a delivery re-sent under a new id still runs once', async () => {
			const target = await receiver({ events: ALL_EVENTS, options: INSECURE_OPTION }, bed.connect({ webhookVerificationSecret: '' }));
			const body = JSON.stringify({ client_id: bed.sandbox.apps.confidential.clientId, data: [{ event: 'subscriber.added', payload: {} }] });
			const date = new Date().toUTCString();
			expect(await post(target.url, { 'aweber-delivery-id': randomUUID(), date }, body)).toMatchObject({ status: 200 });
			expect(await post(target.url, { 'aweber-delivery-id': randomUUID(), date }, body)).toEqual(DUPLICATE);
			expect(target.executions()).toHaveLength(1);
		});

		it('with a key set, the insecure option changes nothing: unsigned deliveries are refused', async () => {
			const target = await receiver({ events: ALL_EVENTS, options: INSECURE_OPTION });
			const body = JSON.stringify({ client_id: bed.sandbox.apps.confidential.clientId, data: [{ event: 'subscriber.added', payload: {} }] });
			expect(await post(target.url, { 'aweber-delivery-id': randomUUID(), date: new Date().toUTCString() }, body)).toEqual({
				status: 401,
				answer: { error: 'missing AWeber-Signature header' },
			});
			expect(target.executions()).toEqual([]);
		});
	});
});
