// Webhook deliveries as AWeber makes them, received by a plain node:http server and verified with node:crypto.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SandboxClock } from './clock';
import { WEBHOOK_CONTENT_TYPE, WebhookDispatcher, signWebhook } from './webhooks';

const CLIENT_ID = 'sandbox-confidential-client';
const ACCOUNT_UUID = '3f1c9a0e-0000-4000-8000-000000000001';
const VERIFICATION_KEY = 'c2FuZGJveC12ZXJpZmljYXRpb24ta2V5';

interface ReceivedDelivery {
	method: string;
	headers: IncomingHttpHeaders;
	body: string;
}

/** A callback endpoint that answers the statuses queued in `answers` (then 200) and records what it got. */
interface Receiver {
	url: string;
	received: ReceivedDelivery[];
	answers: number[];
	close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
	const received: ReceivedDelivery[] = [];
	const answers: number[] = [];
	const server: Server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({ method: request.method ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
			response.statusCode = answers.shift() ?? 200;
			response.end('ignored');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/aweber/webhook`,
		received,
		answers,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** The receiver's check, written from AWeber's documentation without the sandbox's helper. */
function signatureIsValid(key: string, headers: IncomingHttpHeaders, body: string): boolean {
	const signed = `date:${headers.date}\n${body}`.replace(/\s+$/, '');
	const expected = createHmac('sha256', key).update(signed).digest('hex');
	return headers['aweber-signature'] === `sha256=${expected}`;
}

async function waitUntil(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

function subscriberPayload(email: string) {
	return { id: `uuid-${email}`, email, status: 'subscribed', list: 'list-uuid', account: ACCOUNT_UUID };
}

describe('sandbox webhooks', () => {
	let receiver: Receiver;
	let clock: SandboxClock;
	let dispatcher: WebhookDispatcher;

	function startDispatcher(timeScale: number, batchWindowMs?: number) {
		clock = new SandboxClock(timeScale);
		dispatcher = new WebhookDispatcher(clock, { clientId: CLIENT_ID, accountUuid: ACCOUNT_UUID, batchWindowMs });
	}

	beforeEach(async () => {
		receiver = await startReceiver();
		startDispatcher(1);
	});

	afterEach(async () => {
		await dispatcher.stop();
		await receiver.close();
	});

	it('delivers a signed POST that a receiver verifies with node:crypto', async () => {
		dispatcher.register(receiver.url, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		await dispatcher.flush();

		expect(receiver.received).toHaveLength(1);
		const [delivery] = receiver.received;
		expect(delivery.method).toBe('POST');
		expect(delivery.headers['content-type']).toBe(WEBHOOK_CONTENT_TYPE);
		expect(delivery.headers['content-type']).toBe('application/vnd.aweber.webhook+json; version=1.0');
		expect(delivery.headers['aweber-delivery-id']).toEqual(expect.any(String));
		// RFC 7231 IMF-fixdate, from the sandbox clock.
		expect(delivery.headers.date).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		expect(Math.abs(Date.parse(delivery.headers.date as string) - clock.now())).toBeLessThan(60_000);
		expect(signatureIsValid(VERIFICATION_KEY, delivery.headers, delivery.body)).toBe(true);
		expect(signatureIsValid('another-key', delivery.headers, delivery.body)).toBe(false);
		expect(signatureIsValid(VERIFICATION_KEY, delivery.headers, delivery.body.replace('ann@', 'bob@'))).toBe(false);

		const body = JSON.parse(delivery.body);
		expect(body).toEqual({
			account: ACCOUNT_UUID,
			client_id: CLIENT_ID,
			callback: expect.any(String),
			data: [{ event: 'subscriber.added', payload: subscriberPayload('ann@example.com') }],
		});
	});

	it('signWebhook gives the header value a forged delivery needs, trailing whitespace stripped', () => {
		const date = 'Sun, 06 Nov 1994 08:49:37 GMT';
		const expected = createHmac('sha256', 'key').update(`date:${date}\n{"a":1}`).digest('hex');
		expect(signWebhook('key', date, '{"a":1}')).toBe(`sha256=${expected}`);
		expect(signWebhook('key', date, '{"a":1} \r\n\t')).toBe(`sha256=${expected}`);
	});

	it('uses the verification key string as the HMAC key, not its base64 decoding', async () => {
		dispatcher.register(receiver.url, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		await dispatcher.flush();
		const [delivery] = receiver.received;
		const decodedKey = Buffer.from(VERIFICATION_KEY, 'base64');
		const signed = `date:${delivery.headers.date}\n${delivery.body}`;
		expect(delivery.headers['aweber-signature']).not.toBe(
			`sha256=${createHmac('sha256', decodedKey).update(signed).digest('hex')}`,
		);
	});

	it('batches the events enqueued within the batch window into one delivery', async () => {
		startDispatcher(1, 60_000);
		dispatcher.register(receiver.url, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		dispatcher.enqueue('subscriber.subscribed', subscriberPayload('ann@example.com'));
		dispatcher.enqueue('subscriber.unsubscribed', subscriberPayload('bob@example.com'));
		await dispatcher.flush();

		expect(receiver.received).toHaveLength(1);
		const body = JSON.parse(receiver.received[0].body);
		expect(body.data.map((entry: { event: string }) => entry.event)).toEqual([
			'subscriber.added',
			'subscriber.subscribed',
			'subscriber.unsubscribed',
		]);
		expect(dispatcher.deliveries()).toEqual([
			expect.objectContaining({
				attempt: 1,
				status: 200,
				callbackUrl: receiver.url,
				events: ['subscriber.added', 'subscriber.subscribed', 'subscriber.unsubscribed'],
				body: receiver.received[0].body,
			}),
		]);
	});

	it('sends the batch by itself when the batch window closes', async () => {
		dispatcher.register(receiver.url, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		dispatcher.enqueue('subscriber.added', subscriberPayload('bob@example.com'));
		await waitUntil(() => dispatcher.deliveries().length === 1);
		expect(JSON.parse(receiver.received[0].body).data).toHaveLength(2);
	});

	it('delivers only the events a webhook was registered for', async () => {
		dispatcher.register(receiver.url, VERIFICATION_KEY, { events: ['subscriber.unsubscribed'] });
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		dispatcher.enqueue('subscriber.unsubscribed', subscriberPayload('bob@example.com'));
		await dispatcher.flush();
		expect(receiver.received).toHaveLength(1);
		expect(JSON.parse(receiver.received[0].body).data).toEqual([
			{ event: 'subscriber.unsubscribed', payload: subscriberPayload('bob@example.com') },
		]);
		expect(() => dispatcher.register(receiver.url, VERIFICATION_KEY, { events: ['broadcast.sent'] })).toThrow(
			/Unknown webhook event/,
		);
	});

	it('retries a delivery answered 500 after a backoff in sandbox time, with the same delivery id and a fresh signature', async () => {
		receiver.answers.push(500);
		dispatcher.register(receiver.url, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		await dispatcher.flush();
		expect(dispatcher.deliveries().map((entry) => entry.status)).toEqual([500]);

		// Not due yet: flushing again sends nothing.
		await dispatcher.flush();
		expect(receiver.received).toHaveLength(1);

		clock.advance(30_000);
		await dispatcher.flush();
		const log = dispatcher.deliveries();
		expect(log.map((entry) => [entry.attempt, entry.status])).toEqual([
			[1, 500],
			[2, 200],
		]);
		expect(log[1].deliveryId).toBe(log[0].deliveryId);
		expect(receiver.received[1].headers['aweber-delivery-id']).toBe(receiver.received[0].headers['aweber-delivery-id']);
		expect(receiver.received[1].body).toBe(receiver.received[0].body);
		expect(receiver.received[1].headers.date).not.toBe(receiver.received[0].headers.date);
		expect(signatureIsValid(VERIFICATION_KEY, receiver.received[1].headers, receiver.received[1].body)).toBe(true);
	});

	it('backs off exponentially and gives up after three retries', async () => {
		receiver.answers.push(500, 502, 503, 500, 500);
		dispatcher.register(receiver.url, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		await dispatcher.flush();
		for (const backoffSeconds of [30, 60, 120]) {
			clock.advance(backoffSeconds * 1000 - 1000);
			await dispatcher.flush();
			const attemptsBefore = dispatcher.deliveries().length;
			clock.advance(1000);
			await dispatcher.flush();
			expect(dispatcher.deliveries().length).toBe(attemptsBefore + 1);
		}
		clock.advance(3600_000);
		await dispatcher.flush();
		expect(dispatcher.deliveries().map((entry) => entry.status)).toEqual([500, 502, 503, 500]);
	});

	it('retries on its own when the sandbox clock runs fast', async () => {
		startDispatcher(10_000);
		receiver.answers.push(500, 500);
		dispatcher.register(receiver.url, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.subscribed', subscriberPayload('ann@example.com'));
		await dispatcher.flush();
		await waitUntil(() => dispatcher.deliveries().some((entry) => entry.status === 200));
		expect(dispatcher.deliveries().map((entry) => entry.status)).toEqual([500, 500, 200]);
	});

	it('logs a connection failure and retries it', async () => {
		const closedUrl = receiver.url;
		await receiver.close();
		dispatcher.register(closedUrl, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		await dispatcher.flush();
		const [failed] = dispatcher.deliveries();
		expect(failed.status).toBeNull();
		expect(failed.error).toEqual(expect.any(String));

		clock.advance(30_000);
		await dispatcher.flush();
		expect(dispatcher.deliveries().map((entry) => [entry.attempt, entry.status])).toEqual([
			[1, null],
			[2, null],
		]);
	});

	it('forgets webhooks, pending events and the log on reset', async () => {
		dispatcher.register(receiver.url, VERIFICATION_KEY);
		dispatcher.enqueue('subscriber.added', subscriberPayload('ann@example.com'));
		await dispatcher.flush();
		dispatcher.enqueue('subscriber.added', subscriberPayload('bob@example.com'));
		dispatcher.reset();
		await dispatcher.flush();
		expect(dispatcher.deliveries()).toEqual([]);
		dispatcher.enqueue('subscriber.added', subscriberPayload('cid@example.com'));
		await dispatcher.flush();
		expect(receiver.received).toHaveLength(1);
	});
});
