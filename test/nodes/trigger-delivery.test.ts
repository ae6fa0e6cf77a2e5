// What the AWeber Webhook Trigger answers to each delivery, what it logs, the items it emits and how long it keeps a
// delivery in mind (nodes/AWeberSubscriberTrigger/receiveDelivery.ts; docs/triggers.md, "AWeber Webhook Trigger").
import { createHash, randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { MIN_RETENTION_MS } from '../../nodes/AWeberSubscriberTrigger/deliveryLog';
import { useTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import type { WebhookReceiver } from '../harness/webhook';
import { KEY, deliver, useWebhookReceivers } from './webhook-trigger.helpers';

const EVENT = 'subscriber.added';
const MINUTE = 60_000;

/** The expiry of the one delivery a trigger keeps in its static data, in epoch ms (stored in whole seconds). */
function storedExpiry(target: WebhookReceiver): number {
	const log = target.workflow.nodeStaticData.deliveryLog as string[];
	expect(log).toHaveLength(1);
	return parseInt(log[0].split(':')[0], 36) * 1000;
}

describe('AWeber Webhook Trigger: answers, items and memory of one delivery', () => {
	const bed = useTestbed({ timeScale: 1, credential: { webhookVerificationSecret: KEY } });
	const receiver = useWebhookReceivers(bed);

	const body = (data: unknown[], extra: IDataObject = {}) => JSON.stringify({ client_id: bed.sandbox.apps.confidential.clientId, ...extra, data });
	const added = (payload: IDataObject) => body([{ event: EVENT, payload }], { account: bed.sandbox.seed.accountUuid });

	it("logs each refusal in n8n's log with its status, its reason and the node's name", async () => {
		const target = await receiver({ events: [EVENT] });
		const logs = recordNodeLogs();
		try {
			expect(await deliver(target.url, { body: added({}), signature: null })).toMatchObject({ status: 401 });
			expect(await deliver(target.url, { body: '[]' })).toMatchObject({ status: 400 });
		} finally {
			logs.restore();
		}
		const node = { node: 'Trigger Under Test' };
		expect(logs.lines).toEqual([
			{ level: 'warn', message: 'AWeber Webhook Trigger refused a delivery (401): missing AWeber-Signature header', metadata: node },
			{ level: 'warn', message: 'AWeber Webhook Trigger refused a delivery (400): the body is not an AWeber webhook delivery (JSON with a data list)', metadata: node },
		]);
		expect(target.executions()).toEqual([]);
	});

	it('answers 400 to a signed body that is JSON but no object (null), or that n8n did not read (a multipart form)', async () => {
		const target = await receiver({ events: [EVENT] });
		const refused = { status: 400, answer: { error: 'the body is not an AWeber webhook delivery (JSON with a data list)' } };
		expect(await deliver(target.url, { body: 'null' })).toEqual(refused);
		const form = '--b\r\nContent-Disposition: form-data; name="data"\r\n\r\n[]\r\n--b--\r\n';
		expect(await deliver(target.url, { body: form, contentType: 'multipart/form-data; boundary=b' })).toEqual(refused);
		expect(target.executions()).toEqual([]);
	});

	it('without a key (insecure option on), takes a copy sent with an empty Date header for one sent with none', async () => {
		const unverified = bed.connect({ webhookVerificationSecret: '' });
		const target = await receiver({ events: [EVENT], options: { acceptUnsignedDeliveries: true } }, unverified);
		const sent = added({ email: 'undated@example.com' });
		expect(await deliver(target.url, { body: sent, date: null, signature: null })).toMatchObject({ status: 200, answer: { events: 1 } });
		expect(await deliver(target.url, { body: sent, date: '', signature: null })).toEqual({ status: 200, answer: { received: true, duplicate: true } });
		expect(target.executions()).toHaveLength(1);
	});

	it('answers a delivery with no wanted event 200 with the number of events, 0, starts nothing and remembers it', async () => {
		const target = await receiver({ events: ['subscriber.unsubscribed'] });
		const sent = { body: added({ email: 'not-wanted@example.com' }), date: new Date().toUTCString() };
		expect(await deliver(target.url, sent)).toEqual({ status: 200, answer: { received: true, events: 0 } });
		expect(await deliver(target.url, sent)).toEqual({ status: 200, answer: { received: true, duplicate: true } });
		expect(target.executions()).toEqual([]);
	});

	it('names a delivery in its items by its AWeber-Delivery-ID, up to 200 characters', async () => {
		const target = await receiver({ events: [EVENT] });
		const id = 'd'.repeat(200);
		expect(await deliver(target.url, { body: added({}), id })).toEqual({ status: 200, answer: { received: true, events: 1 } });
		expect(target.executions()).toEqual([[expect.objectContaining({ deliveryId: id })]]);
	});

	it('names a delivery without an AWeber-Delivery-ID in its items by the SHA-256 of the bytes received', async () => {
		const target = await receiver({ events: [EVENT] });
		const sent = added({ email: 'no-id@example.com' });
		expect(await deliver(target.url, { body: sent, id: null })).toMatchObject({ status: 200 });
		const digest = createHash('sha256').update(sent).digest('hex');
		expect(target.executions()).toEqual([[expect.objectContaining({ deliveryId: `body:${digest}` })]]);
	});

	it('emits an event without payload as an item with empty fields, and takes the account from the payload when the body has none', async () => {
		const target = await receiver({ events: [EVENT] });
		const sent = body([{ event: EVENT }, { event: EVENT, payload: { account: 'payload-account' } }]);
		expect(await deliver(target.url, { body: sent })).toEqual({ status: 200, answer: { received: true, events: 2 } });
		const [items] = target.executions();
		expect(items).toEqual([
			{ event: EVENT, deliveryId: expect.any(String), account: null, list: null, listId: null, subscriber: {}, verified: true },
			expect.objectContaining({ account: 'payload-account', list: null, listId: null, subscriber: { account: 'payload-account' } }),
		]);
	});

	it.each([0, -3])('takes the default Date window of 5 minutes when the option is %d', async (minutes) => {
		const target = await receiver({ events: [EVENT], options: { dateWindowMinutes: minutes } });
		expect(await deliver(target.url, { body: added({}), date: new Date(Date.now() - 4 * MINUTE).toUTCString() })).toMatchObject({ status: 200 });
		const stale = await deliver(target.url, { body: added({}), date: new Date(Date.now() - 6 * MINUTE).toUTCString() });
		expect(stale).toEqual({ status: 401, answer: { error: 'Date header outside the accepted window' } });
	});

	describe('how long a delivery is kept in the static data', () => {
		it('an hour from its arrival when its Date is a few minutes old', async () => {
			const target = await receiver({ events: [EVENT] });
			const before = Date.now();
			expect(await deliver(target.url, { body: added({}), date: new Date(before - 4 * MINUTE).toUTCString() })).toMatchObject({ status: 200 });
			const expiry = storedExpiry(target);
			expect(expiry).toBeGreaterThanOrEqual(before + MIN_RETENTION_MS);
			expect(expiry).toBeLessThanOrEqual(Date.now() + MIN_RETENTION_MS + 1000);
		});

		it('an hour from its Date when that lies ahead of the arrival', async () => {
			const target = await receiver({ events: [EVENT] });
			const sentAt = Math.floor(Date.now() / 1000) * 1000 + 3 * MINUTE;
			expect(await deliver(target.url, { body: added({}), date: new Date(sentAt).toUTCString() })).toMatchObject({ status: 200 });
			expect(storedExpiry(target)).toBe(sentAt + MIN_RETENTION_MS);
		});

		it('for the Date window when that is longer than an hour', async () => {
			const target = await receiver({ events: [EVENT], options: { dateWindowMinutes: 90 } });
			const before = Date.now();
			expect(await deliver(target.url, { body: added({}) })).toMatchObject({ status: 200 });
			expect(storedExpiry(target)).toBeGreaterThanOrEqual(before + 90 * MINUTE);
			expect(storedExpiry(target)).toBeLessThanOrEqual(Date.now() + 90 * MINUTE + 1000);
		});

		it('an hour from its arrival, whatever its Date, when it was not verified', async () => {
			const unverified = bed.connect({ webhookVerificationSecret: '' });
			const target = await receiver({ events: [EVENT], options: { acceptUnsignedDeliveries: true } }, unverified);
			const before = Date.now();
			const date = new Date(before + 24 * 60 * MINUTE).toUTCString();
			expect(await deliver(target.url, { body: added({}), date, signature: null })).toMatchObject({ status: 200 });
			expect(storedExpiry(target)).toBeGreaterThanOrEqual(before + MIN_RETENTION_MS);
			expect(storedExpiry(target)).toBeLessThanOrEqual(Date.now() + MIN_RETENTION_MS + 1000);
		});
	});

	it('keeps each workflow\'s memory apart: one delivery sent to two triggers runs in both', async () => {
		const first = await receiver({ events: [EVENT] });
		const second = await receiver({ events: [EVENT] });
		const sent = { body: added({}), date: new Date().toUTCString(), id: randomUUID() };
		expect(await deliver(first.url, sent)).toMatchObject({ status: 200, answer: { received: true, events: 1 } });
		expect(await deliver(second.url, sent)).toMatchObject({ status: 200, answer: { received: true, events: 1 } });
		expect([first.executions(), second.executions()].map((runs) => runs.length)).toEqual([1, 1]);
	});

	describe('Only One List', () => {
		const list = () => bed.sandbox.seed.lists.newsletter;
		const link = (id: number) => `https://api.aweber.com/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${id}`;
		const oneList = (value: string): IDataObject => ({
			events: [EVENT],
			filterByList: true,
			accountId: { __rl: true, mode: 'id', value: String(bed.sandbox.seed.accountId) },
			listId: { __rl: true, mode: 'id', value },
		});

		it('matches a list ID given with spaces around it', async () => {
			const target = await receiver(oneList(` ${list()} `));
			const sent = body([{ event: EVENT, payload: { email: 'kept@example.com', links: { list: link(list()) } } }]);
			expect(await deliver(target.url, { body: sent })).toEqual({ status: 200, answer: { received: true, events: 1 } });
			expect(target.executions()).toEqual([[expect.objectContaining({ listId: String(list()) })]]);
		});

		it('leaves out events that name no list, with or without a payload, when no list uuid was stored', async () => {
			const target = await receiver(oneList(String(list())));
			const sent = body([{ event: EVENT }, { event: EVENT, payload: { email: 'no-list@example.com' } }]);
			expect(await deliver(target.url, { body: sent })).toEqual({ status: 200, answer: { received: true, events: 0 } });
			expect(target.executions()).toEqual([]);
		});
	});
});
