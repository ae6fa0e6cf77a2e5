// The list a link names (nodes/shared/links.ts), in a webhook delivery's payload and in AWeber's answers: read from a
// link given as text only; anything else in its place names no list, and a trigger filtering by list does not start.
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { useTestbed } from '../harness/aweber';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook';
import { WEBHOOK_CONTENT_TYPE, signWebhook } from '../sandbox/webhooks';
import { byId } from './email-nodes.helpers';

const KEY = 'c2FuZGJveC12ZXJpZmljYXRpb24ta2V5';

const bed = useTestbed({ credential: { webhookVerificationSecret: KEY } });

describe('AWeber Webhook Trigger: the list of a delivery', () => {
	let hook: WebhookReceiver | undefined;
	afterEach(async () => {
		await hook?.close();
		hook = undefined;
	});

	const newsletter = () => bed.sandbox.seed.lists.newsletter;
	const listLink = () => `${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${newsletter()}`;

	async function receiver(parameters: IDataObject = {}): Promise<WebhookReceiver> {
		hook = await startWebhookReceiver(bed.harness, {
			type: 'aWeberSubscriberTrigger',
			credentialId: bed.credentialId,
			parameters: { events: ['subscriber.added'], ...parameters },
		});
		return hook;
	}

	/** A delivery signed as AWeber signs it, of one subscriber.added event whose payload names its list by `list`. */
	async function deliver(url: string, list: unknown): Promise<{ status: number; body: string }> {
		const body = JSON.stringify({
			account: bed.sandbox.seed.accountUuid,
			client_id: bed.sandbox.apps.confidential.clientId,
			callback: randomUUID(),
			data: [{ event: 'subscriber.added', payload: { email: `list-${randomUUID()}@example.com`, links: { list } } }],
		});
		const date = new Date().toUTCString();
		const response = await request(url, {
			method: 'POST',
			headers: { 'content-type': WEBHOOK_CONTENT_TYPE, 'aweber-delivery-id': randomUUID(), date, 'aweber-signature': signWebhook(KEY, date, body) },
			body,
		});
		return { status: response.statusCode, body: await response.body.text() };
	}

	it("outputs the list ID of the payload's list link, and none for a link without a list or a list link that is not text", async () => {
		const receiving = await receiver();
		for (const list of [listLink(), `${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}`, [listLink()]]) {
			expect(await deliver(receiving.url, list)).toEqual({ status: 200, body: JSON.stringify({ received: true, events: 1 }) });
		}
		expect(receiving.executions().map((items) => items.map((item) => item.listId))).toEqual([[String(newsletter())], [null], [null]]);
	});

	it('filtering by list, does not start for a payload whose list link is not text, even if it holds the list', async () => {
		const receiving = await receiver({ filterByList: true, listId: byId(newsletter()) });
		expect(await deliver(receiving.url, [listLink()])).toEqual({ status: 200, body: JSON.stringify({ received: true, events: 0 }) });
		expect(await deliver(receiving.url, listLink())).toEqual({ status: 200, body: JSON.stringify({ received: true, events: 1 }) });
		expect(receiving.executions()).toHaveLength(1);
	});
});

describe("A subscriber's list, read from AWeber's answer", () => {
	it('is not taken from a list_link that is not text', async () => {
		const listPath = `/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${bed.sandbox.seed.lists.newsletter}`;
		const listLink = `${bed.sandbox.apiBaseUrl}${listPath}`;
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { firstEntry: { list_link: [listLink] } }, method: 'GET', pathPrefix: `${listPath}/subscribers` });
		const result = await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: { operation: 'getAll', accountId: byId(bed.sandbox.seed.accountId), listId: byId(bed.sandbox.seed.lists.newsletter), limit: 2 },
		});
		expect(result.status).toBe('success');
		expect(result.items.map((item) => [item.list_id, item.list_link])).toEqual([
			[undefined, undefined],
			[bed.sandbox.seed.lists.newsletter, listLink],
		]);
	});
});
