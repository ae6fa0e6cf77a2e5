import { createHmac, randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import type { WebhookReceiver } from '../harness/webhook';
import { call, listPath } from '../sandbox/api-test-client';
import { signWebhook } from '../sandbox/webhooks';
import { ALL_EVENTS, KEY, deliver, useWebhookReceivers, type Sent } from './webhook-trigger.helpers';

/** A stored delivery: expiry (s, base 36), then 11-character digests of its id (or nothing) and of its signed content. */
const STORED_DELIVERY = /^[0-9a-z]+:([\w-]{11})?:[\w-]{11}$/;

describe('AWeber Webhook Trigger (signed webhooks)', () => {
	// Real-time sandbox clock: deliveries carry the sandbox's Date, which the trigger checks against its own clock.
	const bed = useTestbed({ timeScale: 1, credential: { webhookVerificationSecret: KEY } });
	const receiver = useWebhookReceivers(bed);

	const accountId = () => ({ __rl: true, mode: 'id', value: String(bed.sandbox.seed.accountId) });
	const listId = (id: number) => ({ __rl: true, mode: 'id', value: String(id) });

	async function subscribe(list: number, email: string): Promise<void> {
		const response = await call(bed.sandbox, 'POST', `${listPath(bed.sandbox, list)}/subscribers`, { token: bed.sandbox.issueToken().access_token, json: { email } });
		expect(response.status).toBe(201);
	}

	/** One real delivery from the sandbox, as AWeber would send it. */
	async function genuineDelivery(target: WebhookReceiver, email = 'ada@example.com') {
		bed.sandbox.webhooks.register(target.url, KEY);
		await subscribe(bed.sandbox.seed.lists.customers, email);
		await bed.sandbox.webhooks.flush();
		const [delivery] = bed.sandbox.webhooks.deliveries();
		return delivery;
	}

	it('turns each event of a delivery signed by AWeber into one item, answering 200', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		const delivery = await genuineDelivery(target, 'grace@example.com');

		expect(delivery.status).toBe(200);
		expect(delivery.events).toEqual(['subscriber.added', 'subscriber.subscribed']);
		const customers = bed.sandbox.seed.lists.customers;
		const subscriber = expect.objectContaining({
			email: 'grace@example.com',
			status: 'subscribed',
			links: expect.objectContaining({ list: expect.stringMatching(new RegExp(`/lists/${customers}$`)) }),
		});
		const common = {
			deliveryId: delivery.deliveryId,
			account: bed.sandbox.seed.accountUuid,
			list: expect.any(String),
			listId: String(customers),
			subscriber,
			verified: true,
		};
		expect(target.executions()).toEqual([
			[
				{ event: 'subscriber.added', ...common },
				{ event: 'subscriber.subscribed', ...common },
			],
		]);
		const [items] = target.executions();
		expect(items[0].list).toBe((items[0].subscriber as IDataObject).list);
	});

	it('answers a delivery without calling AWeber', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		await genuineDelivery(target);
		// The only API request is the test's own subscriber add.
		expect(bed.sandbox.requests().map((entry) => `${entry.method} ${entry.path}`)).toEqual([
			`POST /1.0${listPath(bed.sandbox, bed.sandbox.seed.lists.customers)}/subscribers`,
		]);
	});

	it('starts only for the chosen events and the chosen list', async () => {
		const { newsletter, customers } = bed.sandbox.seed.lists;
		const target = await receiver({
			events: ['subscriber.subscribed'],
			filterByList: true,
			accountId: accountId(),
			listId: listId(newsletter),
		});
		expect(await target.lifecycle('create')).toBe(true);
		bed.sandbox.webhooks.register(target.url, KEY);

		await subscribe(customers, 'other-list@example.com');
		await bed.sandbox.webhooks.flush();
		await subscribe(newsletter, 'wanted@example.com');
		await bed.sandbox.webhooks.flush();

		expect(bed.sandbox.webhooks.deliveries().map((delivery) => delivery.status)).toEqual([200, 200]);
		expect(target.executions()).toEqual([
			[expect.objectContaining({ event: 'subscriber.subscribed', listId: String(newsletter), subscriber: expect.objectContaining({ email: 'wanted@example.com' }) })],
		]);
		// The delivery with nothing wanted was answered 200 and started nothing.
		expect(target.calls[0]).toMatchObject({ status: 200, workflowData: undefined });
	});

	it('matches the list by the uuid stored at activation when a payload has no list link', async () => {
		const { newsletter } = bed.sandbox.seed.lists;
		const target = await receiver({ events: ALL_EVENTS, filterByList: true, accountId: accountId(), listId: listId(newsletter) });
		await target.lifecycle('create');
		const listUuid = target.workflow.nodeStaticData.listUuid as string;
		expect(listUuid).toEqual(expect.any(String));
		const body = JSON.stringify({
			account: bed.sandbox.seed.accountUuid,
			client_id: bed.sandbox.apps.confidential.clientId,
			callback: randomUUID(),
			data: [
				{ event: 'subscriber.added', payload: { list: listUuid, email: 'by-uuid@example.com' } },
				{ event: 'subscriber.added', payload: { list: randomUUID(), email: 'elsewhere@example.com' } },
			],
		});
		expect((await deliver(target.url, { body })).status).toBe(200);
		expect(target.executions()).toEqual([[expect.objectContaining({ subscriber: { list: listUuid, email: 'by-uuid@example.com' } })]]);
	});

	describe('refuses deliveries it cannot trust, with 401 and no execution', () => {
		let target: WebhookReceiver;
		let body: string;

		beforeEach(async () => {
			target = await receiver({ events: ALL_EVENTS });
			body = (await genuineDelivery(target)).body;
			expect(target.executions()).toHaveLength(1);
		});

		const expectRefused = async (sent: Sent, reason: RegExp) => {
			const answer = await deliver(target.url, sent);
			expect(answer).toEqual({ status: 401, answer: { error: expect.stringMatching(reason) } });
			expect(target.executions()).toHaveLength(1);
		};

		it('forged: signed with another key', async () => {
			const date = new Date().toUTCString();
			await expectRefused({ body, date, signature: signWebhook('not-the-key', date, body) }, /does not match/);
		});

		it('tampered: a body changed after signing', async () => {
			const date = new Date().toUTCString();
			const signature = signWebhook(KEY, date, body);
			await expectRefused({ body: body.replace('ada@example.com', 'eve@example.com'), date, signature }, /does not match/);
		});

		it('unsigned, while the credential has a verification key', async () => {
			await expectRefused({ body, signature: null }, /missing AWeber-Signature/);
		});

		it('with a malformed signature header', async () => {
			await expectRefused({ body, signature: 'sha256=not-hex' }, /malformed/);
			await expectRefused({ body, signature: createHmac('sha256', KEY).update(body).digest('hex') }, /malformed/);
		});

		it('with an empty signature header', async () => {
			await expectRefused({ body, signature: '' }, /missing AWeber-Signature/);
		});

		it('without a Date header, or with one that is not a date (the signature covers the Date)', async () => {
			await expectRefused({ body, date: null, signature: signWebhook(KEY, '', body) }, /missing or unreadable Date/);
			await expectRefused({ body, date: 'yesterday' }, /missing or unreadable Date/);
		});

		it('dated in the future beyond the window', async () => {
			await expectRefused({ body, date: new Date(Date.now() + 6 * 60_000).toUTCString() }, /outside the accepted window/);
		});

		it('replayed: correctly signed, but its Date is older than the window', async () => {
			const date = new Date(Date.now() - 6 * 60_000).toUTCString();
			await expectRefused({ body, date }, /outside the accepted window/);
		});

		it('signed with the base64-decoded key (the key is used as pasted)', async () => {
			const date = new Date().toUTCString();
			const signed = `date:${date}\n${body}`;
			const decodedKeySignature = `sha256=${createHmac('sha256', Buffer.from(KEY, 'base64')).update(signed).digest('hex')}`;
			await expectRefused({ body, date, signature: decodedKeySignature }, /does not match/);
		});

		it("for another AWeber app (client_id is not the credential's)", async () => {
			const otherApp = JSON.stringify({ ...JSON.parse(body), client_id: 'someone-elses-app' });
			await expectRefused({ body: otherApp }, /client_id/);
		});

		it('accepts the same bytes signed with another Date, with a new delivery id (the checks above are the only difference)', async () => {
			// A different Date: the same Date and body would be a replay of the first delivery (trigger-replay.test.ts).
			expect((await deliver(target.url, { body, date: new Date(Date.now() - 60_000).toUTCString() })).status).toBe(200);
			expect(target.executions()).toHaveLength(2);
		});

		it('accepts a signature written in capital hex digits', async () => {
			const date = new Date(Date.now() - 30_000).toUTCString();
			const signature = signWebhook(KEY, date, body).replace(/[0-9a-f]{64}$/, (hex) => hex.toUpperCase());
			expect(signature).toMatch(/^sha256=[0-9A-F]{64}$/);
			expect((await deliver(target.url, { body, date, signature })).status).toBe(200);
			expect(target.executions()).toHaveLength(2);
		});
	});

	it('takes a wider Date window when configured', async () => {
		const target = await receiver({ events: ALL_EVENTS, options: { dateWindowMinutes: 10 } });
		const body = (await genuineDelivery(target)).body;
		const date = new Date(Date.now() - 6 * 60_000).toUTCString();
		expect((await deliver(target.url, { body, date })).status).toBe(200);
		expect((await deliver(target.url, { body, date: new Date(Date.now() - 11 * 60_000).toUTCString() })).status).toBe(401);
	});

	it('answers an accepted delivery itself, so n8n stores the delivery id before the run starts', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		await genuineDelivery(target, 'katherine@example.com');
		// n8n 2.38 loses static-data changes when it answers and starts a run itself (docs/queue-mode.md).
		expect(target.calls.at(-1)).toMatchObject({ status: 200, answer: { received: true, events: 2 } });
		expect(target.workflow.nodeStaticData.deliveryLog).toHaveLength(1);
	});

	it('answers a duplicate delivery (same AWeber-Delivery-ID) 200 without a second execution', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		const delivery = await genuineDelivery(target);
		// AWeber's retry: same id and body, fresh Date and signature (the sandbox's first retry comes 30 s later).
		const date = new Date(Date.parse(delivery.headers.Date) + 30_000).toUTCString();
		const retry = await deliver(target.url, { body: delivery.body, id: delivery.deliveryId, date });
		expect(retry).toEqual({ status: 200, answer: { received: true, duplicate: true } });
		expect(target.executions()).toHaveLength(1);
		// Remembered in the workflow's static data, which n8n saves with the workflow.
		const log = target.workflow.nodeStaticData.deliveryLog as string[];
		// Per delivery: its expiry and short digests of its id and of its signed content (docs/triggers.md).
		expect(log).toEqual([expect.stringMatching(STORED_DELIVERY), expect.stringMatching(STORED_DELIVERY)]);
		// The retry's own signed content too, under the same id, so the retry cannot be replayed under another id.
		expect(new Set(log.map((entry) => entry.split(':')[1])).size).toBe(1);
		expect(new Set(log.map((entry) => entry.split(':')[2])).size).toBe(2);
	});

	it('verifies the exact bytes received, trailing whitespace stripped as AWeber signs', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		const body = `${JSON.stringify({
			account: bed.sandbox.seed.accountUuid,
			client_id: bed.sandbox.apps.confidential.clientId,
			data: [{ event: 'subscriber.unsubscribed', payload: { email: 'spaced  out@example.com', tags: ['ü'] } }],
		})}\r\n \t`;
		expect((await deliver(target.url, { body })).status).toBe(200);
		expect(target.executions()).toEqual([[expect.objectContaining({ event: 'subscriber.unsubscribed', listId: null })]]);
	});

	it('without a verification key, and with Accept Unsigned Deliveries on, accepts deliveries unverified and marks the items so', async () => {
		const unverified = bed.connect({ webhookVerificationSecret: '' });
		const target = await receiver({ events: ALL_EVENTS, options: { acceptUnsignedDeliveries: true } }, unverified);
		await genuineDelivery(target);
		const body = JSON.stringify({ client_id: bed.sandbox.apps.confidential.clientId, data: [{ event: 'subscriber.added', payload: {} }] });
		expect((await deliver(target.url, { body, signature: null })).status).toBe(200);
		expect(target.executions().flat().map((item) => item.verified)).toEqual([false, false, false]);
	});

	it('answers 400 to a correctly signed body that is not a webhook delivery', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		expect(await deliver(target.url, { body: '{"hello":' })).toMatchObject({ status: 400 });
		expect(await deliver(target.url, { body: '{"data":"nope"}' })).toMatchObject({ status: 400 });
		expect(target.executions()).toEqual([]);
	});
});
