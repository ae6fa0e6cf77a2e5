// Bursts of deliveries, as AWeber sends them for a web form campaign, an import or an unsubscribe wave: many at once,
// and then its retries of those n8n answered slowly. n8n gives each webhook request its own copy of the workflow's
// static data and writes it back whole when the request is answered (the harness does the same), so the trigger
// cannot rely on the static data alone to tell a copy from a new delivery.
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { MAX_REMEMBERED_DELIVERIES, MIN_RETENTION_MS, rememberDelivery } from '../../nodes/AWeberSubscriberTrigger/deliveryLog';
import { useTestbed } from '../harness/aweber';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook';
import { WEBHOOK_CONTENT_TYPE, signWebhook } from '../sandbox/webhooks';
import { ALL_EVENTS, KEY } from './webhook-trigger.helpers';

interface Delivery {
	id: string;
	body: string;
}

describe('AWeber Webhook Trigger under bursts of deliveries', () => {
	const bed = useTestbed({ timeScale: 1, credential: { webhookVerificationSecret: KEY } });
	const receivers: WebhookReceiver[] = [];
	afterEach(async () => {
		await Promise.all(receivers.splice(0).map(async (receiver) => await receiver.close()));
	});

	async function receiver(): Promise<WebhookReceiver> {
		const started = await startWebhookReceiver(bed.harness, { type: 'aWeberSubscriberTrigger', credentialId: bed.credentialId, parameters: { events: ALL_EVENTS } });
		receivers.push(started);
		return started;
	}

	function delivery(email: string, clientId: unknown = bed.sandbox.apps.confidential.clientId): Delivery {
		const body = JSON.stringify({
			account: bed.sandbox.seed.accountUuid,
			client_id: clientId,
			callback: randomUUID(),
			data: [{ event: 'subscriber.added', payload: { email } }],
		});
		return { id: randomUUID(), body };
	}

	/** Sends a delivery as AWeber does; a retry is the same id and body under a fresh Date and signature. */
	async function send(url: string, sent: Delivery, date = new Date().toUTCString()): Promise<{ status: number; answer: IDataObject }> {
		const response = await request(url, {
			method: 'POST',
			headers: {
				'content-type': WEBHOOK_CONTENT_TYPE,
				'aweber-delivery-id': sent.id,
				date,
				'aweber-signature': signWebhook(KEY, date, sent.body),
			},
			body: sent.body,
		});
		return { status: response.statusCode, answer: (await response.body.json()) as IDataObject };
	}

	/** A Date one second later than now, so a retry's signed content differs from the first copy's. */
	const later = () => new Date(Date.now() + 1_000).toUTCString();

	it('runs once for 10 copies of one delivery arriving at the same moment', async () => {
		const target = await receiver();
		const copy = delivery('ada@example.com');
		const date = new Date().toUTCString();
		const answers = await Promise.all(Array.from({ length: 10 }, async () => await send(target.url, copy, date)));

		expect(target.executions()).toHaveLength(1);
		expect(answers.filter((answer) => answer.answer.duplicate === true)).toHaveLength(9);
		expect(answers.every((answer) => answer.status === 200)).toBe(true);
	});

	it('runs 20 times for 20 deliveries arriving together and then each retried by AWeber', async () => {
		const target = await receiver();
		const burst = Array.from({ length: 20 }, (_, index) => delivery(`burst-${index}@example.com`));
		await Promise.all(burst.map(async (sent) => await send(target.url, sent)));
		expect(target.executions()).toHaveLength(20);

		for (const sent of burst) expect((await send(target.url, sent, later())).answer).toEqual({ received: true, duplicate: true });
		expect(target.executions()).toHaveLength(20);
		// Whichever request's copy of the static data was written last, it holds every delivery of the burst, so a
		// restarted n8n (or another process reading the database) knows them too.
		const stored = target.workflow.nodeStaticData.deliveryLog as string[];
		// Each delivery and each retry (its own signed content, under the delivery's id).
		expect(stored).toHaveLength(40);
		expect(new Set(stored.map((entry) => entry.split(':')[1])).size).toBe(20);
	});

	it('recognises the retry of a copy seen by another request while both were in flight, by id and by content', async () => {
		const target = await receiver();
		const first = delivery('grace@example.com');
		const date = new Date().toUTCString();
		// The first copy and a retry of it (same id, new Date) arrive together, then a replay of the retry's bytes.
		await Promise.all([send(target.url, first, date), send(target.url, first, later())]);
		expect(target.executions()).toHaveLength(1);
	});

	it("refuses a client_id that is not the credential's Client ID as a string (a one-element array)", async () => {
		const target = await receiver();
		const disguised = delivery('eve@example.com', [bed.sandbox.apps.confidential.clientId]);
		expect(await send(target.url, disguised)).toEqual({ status: 401, answer: { error: expect.stringMatching(/client_id/) } });
		expect(target.executions()).toHaveLength(0);
	});
});

describe('delivery log bounds', () => {
	const NOW = Date.parse('2026-01-01T00:00:00Z');
	const WINDOW_MS = 5 * 60_000;
	const entry = (index: number, sentAt = NOW) => ({
		id: `delivery-${index}`,
		digest: index.toString(16).padStart(64, '0'),
		until: sentAt + MIN_RETENTION_MS,
	});

	it('keeps deliveries past their Date window for their hour, however many came since', () => {
		const staticData: IDataObject = {};
		const trigger = `workflow-${randomUUID()}/node`;
		const count = 1_500;
		for (let index = 0; index < count; index++) rememberDelivery(staticData, entry(index), { now: NOW, trigger });

		// Once the window has passed, every delivery of the hour is still known.
		const afterWindow = NOW + WINDOW_MS + 1;
		expect(rememberDelivery(staticData, entry(count, afterWindow), { now: afterWindow, trigger })).toBe(true);
		expect(staticData.deliveryLog).toHaveLength(count + 1);
		expect(rememberDelivery(staticData, { ...entry(0), digest: 'f'.repeat(64) }, { now: afterWindow, trigger })).toBe(false);
	});

	it('keeps every delivery of a burst of 1,500 requests racing as n8n runs them, within its documented bound', () => {
		// n8n's model, as in the harness: each request reads its copy when it arrives and writes it back whole when answered.
		const trigger = `workflow-${randomUUID()}/node`;
		let database: IDataObject = {};
		const inFlight: IDataObject[] = [];
		let accepted = 0;
		for (let index = 0; index < 1_500; index++) {
			const copy = structuredClone(database);
			if (rememberDelivery(copy, entry(index), { now: NOW, trigger })) accepted++;
			inFlight.push(copy);
			// Up to 50 requests overlap; they are answered (written back) in an order of their own.
			if (inFlight.length === 50 || index === 1_499) {
				for (const answered of inFlight.splice(0).reverse()) database = JSON.parse(JSON.stringify(answered)) as IDataObject;
			}
		}
		expect(accepted).toBe(1_500);
		// All 1,500 are within their hour: all are kept, which the bound allows (MAX_REMEMBERED_DELIVERIES).
		const log = database.deliveryLog as IDataObject[];
		expect(log).toHaveLength(1_500);
		expect(log.length).toBeLessThanOrEqual(MAX_REMEMBERED_DELIVERIES);
		// A retry of the first delivery (same id, new signed content) is known, in this process and from the database.
		expect(rememberDelivery(structuredClone(database), { ...entry(0), digest: 'f'.repeat(64) }, { now: NOW, trigger })).toBe(false);
		expect(rememberDelivery(structuredClone(database), { ...entry(0), digest: 'e'.repeat(64) }, { now: NOW, trigger: `${trigger}-restarted` })).toBe(false);
	});

	it('never keeps more than MAX_REMEMBERED_DELIVERIES, even within the window', () => {
		const staticData: IDataObject = {};
		const trigger = `workflow-${randomUUID()}/node`;
		const entries = Array.from({ length: MAX_REMEMBERED_DELIVERIES + 10 }, (_, index) => entry(index));
		for (const fingerprint of entries) rememberDelivery(staticData, fingerprint, { now: NOW, trigger });
		expect(staticData.deliveryLog).toHaveLength(MAX_REMEMBERED_DELIVERIES);
	});

	it('knows, per trigger, what another request of this process accepted although its copy of the static data did not', () => {
		const trigger = `workflow-${randomUUID()}/node`;
		const firstCopy: IDataObject = {};
		const secondCopy: IDataObject = {};
		expect(rememberDelivery(firstCopy, entry(1), { now: NOW, trigger })).toBe(true);
		expect(rememberDelivery(secondCopy, entry(1), { now: NOW, trigger })).toBe(false);
		// Another trigger (another workflow) is not affected.
		expect(rememberDelivery({}, entry(1), { now: NOW, trigger: `${trigger}-other` })).toBe(true);
	});

	it('gives every request\'s copy the one log of the trigger, so the last one written back holds every accepted delivery', () => {
		const trigger = `workflow-${randomUUID()}/node`;
		const copies: IDataObject[] = [{}, {}, {}];
		copies.forEach((copy, index) => expect(rememberDelivery(copy, entry(index), { now: NOW, trigger })).toBe(true));
		for (const copy of copies) expect(copy.deliveryLog).toBe(copies[2].deliveryLog);
		expect(copies[2].deliveryLog).toHaveLength(3);
	});
});
