// How long the Webhook Trigger remembers a delivery: an hour at least (the retry horizon assumed, docs/aweber-behaviour.md),
// whatever the account's pace, within a ceiling in bytes of the workflow's static data (docs/triggers.md).
import { createHash, randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { MAX_LOG_BYTES, MAX_REMEMBERED_DELIVERIES, MIN_RETENTION_MS, rememberDelivery } from '../../nodes/AWeberSubscriberTrigger/deliveryLog';
import { useTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook';
import { WEBHOOK_CONTENT_TYPE, signWebhook } from '../sandbox/webhooks';
import { KEY } from './webhook-trigger.helpers';

interface Delivery {
	id: string;
	body: string;
}

describe('AWeber Webhook Trigger memory of deliveries', () => {
	const bed = useTestbed({ timeScale: 1, credential: { webhookVerificationSecret: KEY } });
	let target: WebhookReceiver | undefined;
	afterEach(async () => {
		jest.restoreAllMocks();
		await target?.close();
		target = undefined;
	});

	async function receiver(options: IDataObject = {}): Promise<WebhookReceiver> {
		target = await startWebhookReceiver(bed.harness, {
			type: 'aWeberSubscriberTrigger',
			credentialId: bed.credentialId,
			parameters: { events: ['subscriber.added'], options },
		});
		return target;
	}

	function delivery(email: string): Delivery {
		const body = JSON.stringify({
			account: bed.sandbox.seed.accountUuid,
			client_id: bed.sandbox.apps.confidential.clientId,
			callback: randomUUID(),
			data: [{ event: 'subscriber.added', payload: { email } }],
		});
		return { id: randomUUID(), body };
	}

	/** Sends a delivery as AWeber does; a retry is the same id and body under a fresh Date and signature. */
	async function send(url: string, sent: Delivery, date = new Date(Date.now()).toUTCString()): Promise<IDataObject> {
		const response = await request(url, {
			method: 'POST',
			headers: { 'content-type': WEBHOOK_CONTENT_TYPE, 'aweber-delivery-id': sent.id, date, 'aweber-signature': signWebhook(KEY, date, sent.body) },
			body: sent.body,
		});
		return (await response.body.json()) as IDataObject;
	}

	/** Moves this machine's wall clock forward (n8n's and the trigger's `Date.now()`), as time passing would. */
	function clockForward(ms: number): void {
		const realNow = Date.now.bind(Date);
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
	}

	it("runs AWeber's retry once, six minutes after the first copy, although 1,001 other deliveries came between", async () => {
		const hook = await receiver();
		const first = delivery('first@example.com');
		expect(await send(hook.url, first)).toEqual({ received: true, events: 1 });
		for (let index = 0; index < 1_001; index++) await send(hook.url, delivery(`busy.${index}@example.com`));
		expect(hook.executions()).toHaveLength(1_002);

		clockForward(6 * 60_000);
		expect(await send(hook.url, first)).toEqual({ received: true, duplicate: true });
		expect(hook.executions()).toHaveLength(1_002);
	});

	it('with a one-hour Date window, recognises a copy re-sent after 10,001 other deliveries', async () => {
		const hook = await receiver({ dateWindowMinutes: 60 });
		const first = delivery('first@example.com');
		const date = new Date().toUTCString();
		await send(hook.url, first, date);
		// 10,001 deliveries of the last hour, all still within their Date window, as the database holds them (written by
		// this trigger in another n8n process as they arrived there).
		const staticData = hook.workflow.nodeStaticData;
		const now = Date.now();
		const trigger = `workflow-${randomUUID()}/node`;
		for (let index = 0; index < 10_001; index++) {
			const digest = createHash('sha256').update(String(index)).digest('hex');
			rememberDelivery(staticData, { id: randomUUID(), digest, until: now + MIN_RETENTION_MS }, { now, trigger });
		}
		const replay = { ...first, id: randomUUID() };
		expect(await send(hook.url, replay, date)).toEqual({ received: true, duplicate: true });
		expect(hook.executions()).toHaveLength(1);
	});

	it(`keeps the log within ${MAX_LOG_BYTES} bytes, forgetting the oldest past ${MAX_REMEMBERED_DELIVERIES} deliveries, and says so`, async () => {
		const hook = await receiver();
		const staticData: IDataObject = {};
		hook.workflow.staticData[`node:${hook.workflow.node.name}`] = staticData;
		const now = Date.now();
		const trigger = `workflow-${randomUUID()}/node`;
		for (let index = 0; index < MAX_REMEMBERED_DELIVERIES; index++) {
			rememberDelivery(staticData, { id: randomUUID(), digest: createHash('sha256').update(String(index)).digest('hex'), until: now + MIN_RETENTION_MS }, { now, trigger });
		}
		expect(Buffer.byteLength(JSON.stringify(staticData.deliveryLog))).toBeLessThanOrEqual(MAX_LOG_BYTES);

		const logs = recordNodeLogs();
		try {
			expect(await send(hook.url, delivery('one-more@example.com'))).toEqual({ received: true, events: 1 });
		} finally {
			logs.restore();
		}
		expect(hook.workflow.nodeStaticData.deliveryLog).toHaveLength(MAX_REMEMBERED_DELIVERIES);
		expect(Buffer.byteLength(JSON.stringify(hook.workflow.nodeStaticData.deliveryLog))).toBeLessThanOrEqual(MAX_LOG_BYTES);
		expect(logs.lines).toEqual([
			{ level: 'warn', message: expect.stringMatching(/memory of deliveries is full .* forgot the 1 oldest/), metadata: { node: hook.workflow.node.name } },
		]);
	});
});
