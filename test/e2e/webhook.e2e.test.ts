// The AWeber Webhook Trigger in a published workflow receives the sandbox's signed deliveries at n8n's production URL;
// forged and replayed deliveries start nothing.
import { randomUUID } from 'node:crypto';

import type { DeliveryLogEntry } from '../sandbox';
import { call } from '../sandbox/api-test-client';
import { WEBHOOK_CONTENT_TYPE, WEBHOOK_EVENTS, signWebhook } from '../sandbox/webhooks';
import {
	activateWorkflow,
	aweberNode,
	createAweberCredential,
	importWorkflow,
	listExecutionIds,
	nodeItems,
	useSandboxAndN8n,
	waitForExecutions,
} from './lib';

// As AWeber hands it out: base64-looking text, used as-is for the HMAC.
const KEY = 'c2FuZGJveC12ZXJpZmljYXRpb24ta2V5';
const TRIGGER = 'AWeber Webhook Trigger';

describe('AWeber Webhook Trigger at n8n\'s production webhook URL', () => {
	// Real-time sandbox clock: the trigger checks each delivery's Date against n8n's clock.
	const env = useSandboxAndN8n({ timeScale: 1 });
	let workflowId: string;
	let webhookUrl: string;
	let token: string;

	let credentialId: string;

	/** An active workflow with the AWeber Webhook Trigger; returns its id and n8n's production URL of the trigger. */
	async function publishTriggerWorkflow(name: string): Promise<{ id: string; url: string }> {
		const webhookId = randomUUID();
		const trigger = {
			...aweberNode({ name: TRIGGER, node: 'aWeberSubscriberTrigger', parameters: { events: [...WEBHOOK_EVENTS] }, executeOnce: false }, credentialId),
			webhookId,
		};
		const id = await importWorkflow(env.n8n, { name, nodes: [trigger], connections: {} });
		await activateWorkflow(env.n8n, id);
		// n8n's production URL for a node with a webhookId: /webhook/<webhookId>/<the node's webhook path>.
		return { id, url: `${env.n8n.baseUrl}/webhook/${webhookId}/webhook` };
	}

	beforeAll(async () => {
		token = env.sandbox.issueToken().access_token;
		credentialId = await createAweberCredential(env.n8n, env.sandbox, { webhookVerificationSecret: KEY });
		({ id: workflowId, url: webhookUrl } = await publishTriggerWorkflow('AWeber deliveries'));
		env.sandbox.webhooks.register(webhookUrl, KEY);
	});

	/** Adds a subscriber through AWeber's API and has the sandbox deliver the events now. */
	async function subscribe(email: string): Promise<DeliveryLogEntry> {
		const before = env.sandbox.webhooks.deliveries().length;
		const response = await call(env.sandbox, 'POST', `/accounts/${env.sandbox.seed.accountId}/lists/${env.sandbox.seed.lists.customers}/subscribers`, {
			token,
			json: { email },
		});
		expect(response.status).toBe(201);
		await env.sandbox.webhooks.flush();
		const deliveries = env.sandbox.webhooks.deliveries().slice(before);
		expect(deliveries).toHaveLength(1);
		return deliveries[0];
	}

	async function post(body: string, headers: Record<string, string>): Promise<number> {
		const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': WEBHOOK_CONTENT_TYPE, ...headers }, body });
		await response.text();
		return response.status;
	}

	it('runs the workflow once per delivery, with one item per event', async () => {
		const delivery = await subscribe('grace@example.com');
		expect(delivery.status).toBe(200);
		expect(delivery.events).toEqual(['subscriber.added', 'subscriber.subscribed']);

		const [execution] = await waitForExecutions(env.n8n, workflowId, 1);
		expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
		const subscriber = expect.objectContaining({ email: 'grace@example.com', status: 'subscribed' });
		const common = {
			deliveryId: delivery.deliveryId,
			account: env.sandbox.seed.accountUuid,
			listId: String(env.sandbox.seed.lists.customers),
			subscriber,
			verified: true,
		};
		expect(nodeItems(execution, TRIGGER)).toEqual([
			expect.objectContaining({ event: 'subscriber.added', ...common }),
			expect.objectContaining({ event: 'subscriber.subscribed', ...common }),
		]);
	});

	it('refuses forged deliveries with 401, and starts no execution for them or for a replay', async () => {
		const genuine = env.sandbox.webhooks.deliveries()[0];
		const executionsBefore = (await listExecutionIds(env.n8n, workflowId)).length;
		const date = new Date().toUTCString();
		const fresh = () => ({ 'aweber-delivery-id': randomUUID(), date });

		// Signed with another key.
		expect(await post(genuine.body, { ...fresh(), 'aweber-signature': signWebhook('not-the-key', date, genuine.body) })).toBe(401);
		// A genuine signature over a tampered body.
		const tampered = genuine.body.replace('grace@example.com', 'mallory@example.com');
		expect(tampered).not.toBe(genuine.body);
		expect(await post(tampered, { ...fresh(), 'aweber-signature': signWebhook(KEY, date, genuine.body) })).toBe(401);
		// No signature at all.
		expect(await post(genuine.body, fresh())).toBe(401);
		// A replay: the genuine delivery's own Date and signature, under a new delivery id (answered 200, runs nothing).
		const replay = { 'aweber-delivery-id': randomUUID(), date: genuine.headers.Date, 'aweber-signature': genuine.headers['AWeber-Signature'] };
		expect(await post(genuine.body, replay)).toBe(200);

		// A genuine delivery afterwards is the only new execution: the forged ones started none.
		await subscribe('ada.two@example.com');
		const executions = await waitForExecutions(env.n8n, workflowId, executionsBefore + 1);
		expect(executions).toHaveLength(executionsBefore + 1);
		expect(nodeItems(executions.at(-1)!, TRIGGER).map((item) => (item.subscriber as { email: string }).email)).toEqual([
			'ada.two@example.com',
			'ada.two@example.com',
		]);
	});

	describe('bursts: n8n gives each request its own copy of the static data', () => {
		/** A delivery AWeber could send: its id and body; each send signs it under the Date given. */
		const delivery = (email: string) => ({
			id: randomUUID(),
			body: JSON.stringify({
				account: env.sandbox.seed.accountUuid,
				client_id: env.sandbox.apps.confidential.clientId,
				callback: randomUUID(),
				data: [{ event: 'subscriber.added', payload: { email } }],
			}),
		});
		async function send(url: string, sent: { id: string; body: string }, date: string): Promise<number> {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': WEBHOOK_CONTENT_TYPE, 'aweber-delivery-id': sent.id, date, 'aweber-signature': signWebhook(KEY, date, sent.body) },
				body: sent.body,
			});
			await response.text();
			return response.status;
		}
		/** Executions settle: the count no longer grows for a few seconds. */
		async function settledExecutionCount(id: string): Promise<number> {
			let count = -1;
			for (;;) {
				await new Promise((resolve) => setTimeout(resolve, 3_000));
				const now = (await listExecutionIds(env.n8n, id)).length;
				if (now === count) return count;
				count = now;
			}
		}

		it('runs once for 10 copies of one delivery sent at the same moment', async () => {
			const target = await publishTriggerWorkflow('AWeber burst of copies');
			const copy = delivery('burst-copy@example.com');
			const date = new Date().toUTCString();
			const statuses = await Promise.all(Array.from({ length: 10 }, async () => await send(target.url, copy, date)));
			expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
			expect(await settledExecutionCount(target.id)).toBe(1);
		});

		it('runs 20 times for 20 deliveries sent together and then each retried (same id, fresh Date and signature)', async () => {
			const target = await publishTriggerWorkflow('AWeber burst and retries');
			const burst = Array.from({ length: 20 }, (_, index) => delivery(`burst-${index}@example.com`));
			const date = new Date().toUTCString();
			expect(await Promise.all(burst.map(async (sent) => await send(target.url, sent, date)))).toEqual(burst.map(() => 200));
			await waitForExecutions(env.n8n, target.id, 20);
			// AWeber's retries come a little later, one after another.
			await new Promise((resolve) => setTimeout(resolve, 1_000));
			for (const sent of burst) expect(await send(target.url, sent, new Date().toUTCString())).toBe(200);
			expect(await settledExecutionCount(target.id)).toBe(20);
		});
	});
});
