// n8n in queue mode (main + worker + webhook processor, Redis and PostgreSQL on loopback): the AWeber Webhook Trigger and a
// bulk subscriber workflow run on the worker with the same results as in regular mode. What this shows and what it
// does not: docs/queue-mode.md.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { startSandbox } from '../sandbox';
import { call } from '../sandbox/api-test-client';
import type { DeliveryLogEntry, Sandbox } from '../sandbox/types';
import { WEBHOOK_CONTENT_TYPE, signWebhook } from '../sandbox/webhooks';
import {
	activateWorkflow,
	aweberType,
	byId,
	createAweberCredential,
	CREDENTIAL_TYPE,
	importWorkflow,
	itemsWorkflow,
	listExecutionIds,
	nodeItems,
	runWorkflow,
	waitForExecutions,
	type WorkflowJson,
	type WorkflowNode,
} from './lib';
import { executionsRunBy, startQueueCluster, type QueueCluster } from './lib/queue';

// The key as AWeber hands it out; the trigger uses its UTF-8 bytes as the HMAC key.
const KEY = 'c2FuZGJveC12ZXJpZmljYXRpb24ta2V5';
const ALL_EVENTS = ['subscriber.added', 'subscriber.subscribed', 'subscriber.unsubscribed'];
const TRIGGER = 'AWeber Webhook Trigger';
const BULK_SIZE = 200;
// The bulk sandbox runs 20 times faster: AWeber's 120 requests per minute become 120 per 3 s.
const BULK_TIME_SCALE = 20;
/** Subscribers the sandbox seeds on its Bulk list. */
const BULK_SEED_SIZE = 10;

/** A delivery posted the way AWeber (and the sandbox) sends one, signed with `key` and a fresh Date. */
async function post(url: string, body: string, deliveryId: string, key = KEY): Promise<{ status: number; answer: unknown }> {
	const date = new Date().toUTCString();
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': WEBHOOK_CONTENT_TYPE,
			'aweber-delivery-id': deliveryId,
			date,
			'aweber-signature': signWebhook(key, date, body),
		},
		body,
	});
	const text = await response.text();
	let answer: unknown = text;
	try {
		answer = JSON.parse(text);
	} catch {
		// Not JSON: keep the text.
	}
	return { status: response.status, answer };
}

/** "Add Subscriber" to the sandbox's Bulk list, one per item, its email from the item, on the named credential. */
function bulkAddNode(sandbox: Sandbox, credentialId: string, credentialName: string): WorkflowNode {
	const { accountId, lists } = sandbox.seed;
	return {
		name: 'Add Subscriber',
		type: aweberType('aWeberSubscriber'),
		typeVersion: 1,
		position: [440, 0],
		parameters: { accountId: byId(accountId), listId: byId(lists.bulk), operation: 'create', email: '={{ $json.email }}' },
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: credentialName } },
	};
}

describe('n8n in queue mode (main, worker, webhook processor; Redis and PostgreSQL)', () => {
	let cluster: QueueCluster;
	let webhookSandbox: Sandbox;
	let bulkSandbox: Sandbox;

	beforeAll(async () => {
		// Real time for the webhook sandbox: the trigger checks each delivery's Date against its own clock.
		webhookSandbox = await startSandbox({ timeScale: 1 });
		bulkSandbox = await startSandbox({ timeScale: BULK_TIME_SCALE, seedSize: BULK_SEED_SIZE });
		cluster = await startQueueCluster();
	});
	afterAll(async () => {
		await cluster?.stop();
		await webhookSandbox?.stop();
		await bulkSandbox?.stop();
	});

	it('runs n8n in queue mode on PostgreSQL', async () => {
		const settings = await cluster.main.rest<{ executionMode: string }>('GET', '/settings');
		expect(settings.executionMode).toBe('queue');
		expect(cluster.env).toMatchObject({ EXECUTIONS_MODE: 'queue', DB_TYPE: 'postgresdb' });
	});

	describe('AWeber Webhook Trigger: deliveries at the webhook processor, executions on the worker', () => {
		const webhookId = randomUUID();
		let workflowId: string;
		let productionUrl: string;
		let mainUrl: string;
		let token: string;

		beforeAll(async () => {
			const credentialId = await createAweberCredential(cluster.main, webhookSandbox, {
				name: 'AWeber webhooks',
				webhookVerificationSecret: KEY,
			});
			const workflow: WorkflowJson = {
				name: 'AWeber deliveries (queue mode)',
				nodes: [
					{
						name: TRIGGER,
						type: aweberType('aWeberSubscriberTrigger'),
						typeVersion: 1,
						position: [0, 0],
						parameters: { events: ALL_EVENTS },
						credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'AWeber webhooks' } },
						webhookId,
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			};
			workflowId = await importWorkflow(cluster.main, workflow);
			await activateWorkflow(cluster.main, workflowId);
			// n8n's production URL for a node with a webhookId: /webhook/<webhookId>/<path in the node description>.
			productionUrl = `${cluster.webhook.baseUrl}/webhook/${webhookId}/webhook`;
			mainUrl = `${cluster.main.baseUrl}/webhook/${webhookId}/webhook`;
			webhookSandbox.webhooks.register(productionUrl, KEY);
			token = webhookSandbox.issueToken().access_token;
		});

		/** Subscribes someone to Customers (AWeber sends subscriber.added and .subscribed) and returns the delivery. */
		async function genuineDelivery(email: string): Promise<DeliveryLogEntry> {
			const { accountId, lists } = webhookSandbox.seed;
			const response = await call(webhookSandbox, 'POST', `/accounts/${accountId}/lists/${lists.customers}/subscribers`, {
				token,
				json: { email },
			});
			expect(response.status).toBe(201);
			await webhookSandbox.webhooks.flush();
			const deliveries = webhookSandbox.webhooks.deliveries();
			return deliveries[deliveries.length - 1];
		}

		it('tells the user the production URL on the webhook processor', async () => {
			expect(readFileSync(cluster.main.logFile, 'utf8')).toContain(`AWeber must send this workflow's webhooks to ${productionUrl}`);
		});

		it('turns each event of a signed delivery into one item, in an execution the worker ran', async () => {
			const delivery = await genuineDelivery('grace@example.com');
			expect(delivery).toMatchObject({ callbackUrl: productionUrl, status: 200, events: ['subscriber.added', 'subscriber.subscribed'] });

			const [execution] = await waitForExecutions(cluster.main, workflowId, 1);
			expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
			expect(executionsRunBy(cluster.worker)).toContain(execution.executionId);
			const customers = webhookSandbox.seed.lists.customers;
			const common = {
				deliveryId: delivery.deliveryId,
				account: webhookSandbox.seed.accountUuid,
				list: expect.any(String),
				listId: String(customers),
				subscriber: expect.objectContaining({ email: 'grace@example.com', status: 'subscribed' }),
				verified: true,
			};
			expect(nodeItems(execution, TRIGGER)).toEqual([
				{ event: 'subscriber.added', ...common },
				{ event: 'subscriber.subscribed', ...common },
			]);
		});

		it('refuses a forged delivery with 401 and starts nothing', async () => {
			const [first] = webhookSandbox.webhooks.deliveries();
			const forged = await post(productionUrl, first.body.replace('grace@example.com', 'eve@example.com'), randomUUID(), 'not-the-key');
			expect(forged).toEqual({ status: 401, answer: { error: expect.stringMatching(/does not match/) } });
		});

		it('drops a repeated delivery id at any webhook-handling process: the dedupe lives in the database, not in memory', async () => {
			const [first] = webhookSandbox.webhooks.deliveries();
			// AWeber's retry: same id and body, fresh Date and signature. The main process serves production
			// webhooks too, so this one reaches another n8n process than the original delivery did.
			expect(await post(mainUrl, first.body, first.deliveryId)).toEqual({ status: 200, answer: { received: true, duplicate: true } });
			expect(await post(productionUrl, first.body, first.deliveryId)).toEqual({
				status: 200,
				answer: { received: true, duplicate: true },
			});
			// The record both processes read: the trigger's static data, saved with the workflow in PostgreSQL.
			const workflow = await cluster.main.rest<{ staticData?: Record<string, { deliveryLog?: string[] }> }>('GET', `/workflows/${workflowId}`);
			// The first delivery, and the retries' own signed content (a fresh Date each second), all under its id: each
			// entry is `<expiry>:<id digest>:<content digest>`, the id digest 64 bits of SHA-256 (docs/triggers.md).
			const remembered = workflow.staticData?.[`node:${TRIGGER}`]?.deliveryLog ?? [];
			expect(remembered.length).toBeGreaterThanOrEqual(1);
			const idDigest = createHash('sha256').update(first.deliveryId, 'utf8').digest().subarray(0, 8).toString('base64url');
			expect(new Set(remembered.map((entry) => entry.split(':')[1]))).toEqual(new Set([idDigest]));

			// The next new delivery runs; the forged and repeated deliveries before it started nothing.
			const second = await genuineDelivery('katherine@example.com');
			expect(second).toMatchObject({ callbackUrl: productionUrl, status: 200 });
			expect(second.deliveryId).not.toBe(first.deliveryId);
			const executions = await waitForExecutions(cluster.main, workflowId, 2);
			expect(executions).toHaveLength(2);
			expect(executions.map((execution) => nodeItems(execution, TRIGGER)[0].deliveryId)).toEqual([first.deliveryId, second.deliveryId]);
			for (const execution of executions) expect(executionsRunBy(cluster.worker)).toContain(execution.executionId);
		});

		describe('bursts across processes (the main process and the webhook processor both serve production webhooks)', () => {
			/** A delivery of one event, as AWeber would send it; each post signs it under a fresh Date. */
			const delivery = (email: string) => ({
				id: randomUUID(),
				body: JSON.stringify({
					account: webhookSandbox.seed.accountUuid,
					client_id: webhookSandbox.apps.confidential.clientId,
					callback: randomUUID(),
					data: [{ event: 'subscriber.added', payload: { email } }],
				}),
			});
			const executionCount = async () => (await listExecutionIds(cluster.main, workflowId)).length;
			/** Waits until the execution count stops growing for a few seconds. */
			async function settledExecutionCount(): Promise<number> {
				let count = -1;
				for (;;) {
					await new Promise((resolve) => setTimeout(resolve, 3_000));
					const now = await executionCount();
					if (now === count) return count;
					count = now;
				}
			}

			it('runs a burst at the webhook processor once each, and AWeber\'s retries of it at the main process not again', async () => {
				const before = await settledExecutionCount();
				const burst = Array.from({ length: 20 }, (_, index) => delivery(`queue-burst-${index}@example.com`));
				const answers = await Promise.all(burst.map(async (sent) => await post(productionUrl, sent.body, sent.id)));
				expect(answers.map((answer) => answer.status)).toEqual(burst.map(() => 200));
				await waitForExecutions(cluster.main, workflowId, before + 20);
				// Retries reach the other process: it knows the burst only from the database.
				for (const sent of burst) expect((await post(mainUrl, sent.body, sent.id)).answer).toEqual({ received: true, duplicate: true });
				expect((await settledExecutionCount()) - before).toBe(20);
			});

			it('measures copies of one delivery that reach both processes at the same moment (docs/queue-mode.md)', async () => {
				const before = await settledExecutionCount();
				const deliveries = Array.from({ length: 10 }, (_, index) => delivery(`queue-copies-${index}@example.com`));
				// Each delivery: two copies at each process, all four at once.
				await Promise.all(
					deliveries.flatMap((sent) => [productionUrl, mainUrl, productionUrl, mainUrl].map(async (url) => await post(url, sent.body, sent.id))),
				);
				const ran = (await settledExecutionCount()) - before;
				// Within one process a copy never runs twice; across the two processes, at most once each.
				console.log(`queue mode: 10 deliveries, each sent as 2 copies to each of 2 processes at once: ${ran} executions`);
				expect(ran).toBeGreaterThanOrEqual(10);
				expect(ran).toBeLessThanOrEqual(20);
			});
		});
	});

	describe(`bulk: ${BULK_SIZE} new subscribers in one run on the worker`, () => {
		it('adds every one, paced under the rate limit (no 403 at the sandbox)', async () => {
			const { accountId, lists } = bulkSandbox.seed;
			const credentialId = await createAweberCredential(cluster.main, bulkSandbox, {
				name: 'AWeber bulk',
				// The sandbox's window shrinks with its time scale; the credential tells the nodes so.
				data: { rateLimitRequests: 120, rateLimitWindowSeconds: 60 / BULK_TIME_SCALE },
			});
			const workflow = itemsWorkflow(
				'AWeber bulk sign-up (queue mode)',
				{ name: 'People', jsCode: `return Array.from({ length: ${BULK_SIZE} }, (_, i) => ({ json: { email: 'bulk-' + i + '@example.com' } }));` },
				bulkAddNode(bulkSandbox, credentialId, 'AWeber bulk'),
			);
			const workflowId = await importWorkflow(cluster.main, workflow);
			bulkSandbox.clearRequests();

			const result = await runWorkflow(cluster.main, workflowId, { timeoutMs: 240_000 });

			expect(result.status).toBe('success');
			expect(executionsRunBy(cluster.worker)).toContain(result.executionId);
			const emails = Array.from({ length: BULK_SIZE }, (_, index) => `bulk-${index}@example.com`);
			expect(nodeItems(result, 'Add Subscriber').map((item) => item.email)).toEqual(emails);
			const adds = bulkSandbox.requests().filter((entry) => entry.method === 'POST' && entry.path.endsWith(`/lists/${lists.bulk}/subscribers`));
			expect(adds).toHaveLength(BULK_SIZE);
			expect(adds.every((entry) => entry.status === 201)).toBe(true);
			expect(bulkSandbox.requests().filter((entry) => entry.status === 403)).toEqual([]);
			// Read after the run: a request of the test's own during it would spend the account's budget behind the nodes' back.
			const token = bulkSandbox.issueToken().access_token;
			const listSize = await call(bulkSandbox, 'GET', `/accounts/${accountId}/lists/${lists.bulk}/subscribers`, {
				token,
				query: { 'ws.show': 'total_size' },
			});
			expect(listSize.json()).toBe(BULK_SEED_SIZE + BULK_SIZE);
		});
	});
});

// Two workers (each a process with its own rate limiter) running two bulk executions at once on one credential, with
// the credential's default limit: each learns its share of the account from AWeber's refusals (docs/queue-mode.md).
describe('two workers, two bulk executions at once on one credential', () => {
	// Which worker takes a queued execution is Bull's choice: on a loaded machine one worker took both executions
	// (one after the other) in a CI rehearsal while the other had not yet picked up jobs, and it passed alone right
	// after. A failed test of this file is tried once more (jest reads the setting for the whole file), with every
	// assertion as it is.
	jest.retryTimes(1, { logErrorsBeforeRetry: true });
	const PER_EXECUTION = 150;
	let cluster: QueueCluster;
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ timeScale: BULK_TIME_SCALE });
		// One execution per worker at a time, so the two executions run in two processes.
		cluster = await startQueueCluster({ workers: 2, workerEnv: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' } });
	});
	afterAll(async () => {
		await cluster?.stop();
		await sandbox?.stop();
	});

	/** A workflow adding `PER_EXECUTION` new subscribers named after `prefix` to the Bulk list. */
	function bulkWorkflow(prefix: string, credentialId: string): WorkflowJson {
		return itemsWorkflow(
			`AWeber bulk ${prefix} (two workers)`,
			{ name: 'People', jsCode: `return Array.from({ length: ${PER_EXECUTION} }, (_, i) => ({ json: { email: '${prefix}-' + i + '@example.com' } }));` },
			bulkAddNode(sandbox, credentialId, 'AWeber shared'),
		);
	}

	it('adds every subscriber in order, each execution on its own worker, with the account locked out at most twice', async () => {
		const credentialId = await createAweberCredential(cluster.main, sandbox, {
			name: 'AWeber shared',
			// The credential's defaults (120 requests per window), the window scaled with the sandbox's clock.
			data: { rateLimitRequests: 120, rateLimitWindowSeconds: 60 / BULK_TIME_SCALE },
		});
		const prefixes = ['first', 'second'];
		const workflowIds = await Promise.all(prefixes.map(async (prefix) => await importWorkflow(cluster.main, bulkWorkflow(prefix, credentialId))));
		const listSize = async () =>
			(
				await call(sandbox, 'GET', `/accounts/${sandbox.seed.accountId}/lists/${sandbox.seed.lists.bulk}/subscribers`, {
					token: sandbox.issueToken().access_token,
					query: { 'ws.show': 'total_size' },
				})
			).json() as number;
		const sizeBefore = await listSize();
		// The test's own read must not count against the nodes' budget.
		sandbox.reset();
		sandbox.clearRequests();

		const results = await Promise.all(workflowIds.map(async (workflowId) => await runWorkflow(cluster.main, workflowId, { timeoutMs: 300_000 })));

		for (const [index, result] of results.entries()) {
			expect(result.status).toBe('success');
			const emails = Array.from({ length: PER_EXECUTION }, (_, item) => `${prefixes[index]}-${item}@example.com`);
			expect(nodeItems(result, 'Add Subscriber').map((item) => item.email)).toEqual(emails);
		}
		// One execution on each worker: two processes, two rate limiters, one account.
		const ranBy = cluster.workers.map((worker) => executionsRunBy(worker));
		expect(ranBy.map((ids) => results.filter((result) => ids.includes(result.executionId)).length)).toEqual([1, 1]);

		const requests = sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));
		const adds = requests.filter((entry) => entry.method === 'POST' && entry.path.endsWith(`/lists/${sandbox.seed.lists.bulk}/subscribers`));
		expect(adds.filter((entry) => entry.status === 201)).toHaveLength(2 * PER_EXECUTION);
		// Lockouts: a "Rate Limit Error" after the previous lockout (one AWeber minute) had ended.
		const lockoutMs = 60_000 / BULK_TIME_SCALE;
		let lockouts = 0;
		let lockedUntil = -Infinity;
		for (const refusal of requests.filter((entry) => entry.status === 403)) {
			const time = Date.parse(refusal.time);
			if (time < lockedUntil) continue;
			lockouts++;
			lockedUntil = time + lockoutMs;
		}
		expect(lockouts).toBeLessThanOrEqual(2);
		if (lockouts > 0) {
			// The worker that learned it shares the account says so, once per change, not once per request.
			const notices = cluster.workers.flatMap((worker) =>
				readFileSync(worker.logFile, 'utf8')
					.split('\n')
					.filter((line) => line.includes('another process or app is using this AWeber account')),
			);
			expect(notices.length).toBeGreaterThanOrEqual(1);
			expect(notices.length).toBeLessThanOrEqual(2 * lockouts);
		}
		// Read after the run, so the test's own request does not spend the account's budget during it.
		expect(await listSize()).toBe(sizeBefore + 2 * PER_EXECUTION);
	});
});
