// Turns between executions in a real n8n (issue 50): a sign-up arriving at a production webhook is answered within
// seconds while a bulk run of another workflow fills the same credential's rate limit. How n8n runs two executions
// at once in one process, and which execution ID each context answers, decides it, so the harness is not enough.
import { randomUUID } from 'node:crypto';

import {
	activateWorkflow,
	aweberNode,
	byId,
	chainConnections,
	createAweberCredential,
	getExecution,
	importWorkflow,
	itemsWorkflow,
	MANUAL_TRIGGER_NAME,
	RUNTIME_LINE,
	useSandboxAndN8n,
	type WorkflowJson,
} from './lib';

/** Enough for the bulk to outlast the first minute by far: AWeber allows 120 a minute (real time here). */
const BULK_ITEMS = 300;

describe('A sign-up while a bulk run uses the same AWeber credential, in a real n8n', () => {
	// Real time: the webhook's answer is timed in AWeber's seconds, which n8n's own work then weighs as it does in production.
	const env = useSandboxAndN8n({ timeScale: 1 });

	it('answers the sign-up within a few seconds, not after the bulk\'s queue, and the bulk goes on', async () => {
		const { sandbox, n8n } = env;
		const credentialId = await createAweberCredential(n8n, sandbox);
		const listId = byId(sandbox.seed.lists.empty);
		const accountId = byId(sandbox.seed.accountId);

		const bulk = itemsWorkflow(
			'Bulk import',
			{ name: 'Rows', jsCode: `return Array.from({ length: ${BULK_ITEMS} }, (_, i) => ({ json: { email: 'bulk' + i + '@example.com' } }));` },
			aweberNode(
				{ name: 'Add', node: 'aWeberSubscriber', parameters: { operation: 'create', accountId, listId, email: '={{ $json.email }}', output: 'summary' }, executeOnce: false },
				credentialId,
				[440, 0],
			),
		);
		const path = `sign-up-${randomUUID().slice(0, 8)}`;
		const signUp: WorkflowJson = {
			name: 'Sign-up form',
			nodes: [
				{
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} },
				},
				aweberNode(
					{ name: 'Subscribe', node: 'aWeberSubscriber', parameters: { operation: 'create', accountId, listId, email: '={{ $json.body.email }}' }, executeOnce: false },
					credentialId,
					[220, 0],
				),
			],
			connections: chainConnections(['Webhook', 'Subscribe']),
			settings: { executionOrder: 'v1' },
		};
		const bulkId = await importWorkflow(n8n, bulk);
		const signUpId = await importWorkflow(n8n, signUp);
		await activateWorkflow(n8n, signUpId);

		// A warm-up sign-up: n8n's first webhook call loads what it needs, which is not what is measured.
		const warmUp = await fetch(`${n8n.baseUrl}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'warm.up@example.com' }) });
		expect(warmUp.status).toBe(200);
		await warmUp.text();

		sandbox.clearRequests();
		const workflow = await n8n.rest<WorkflowJson>('GET', `/workflows/${bulkId}`);
		const start = { triggerToStartFrom: { name: MANUAL_TRIGGER_NAME } };
		const { executionId } = await n8n.rest<{ executionId: string }>('POST', `/workflows/${bulkId}/run`, RUNTIME_LINE === 1 ? { workflowData: workflow, ...start } : start);
		const bulkAdds = () => sandbox.requests().filter((entry) => entry.method === 'POST' && String((entry.body as { email?: string })?.email).startsWith('bulk')).length;
		// The bulk has sent more than its first burst: the rest of its items wait for the account's turns.
		const deadline = Date.now() + 60_000;
		while (bulkAdds() < 60 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
		expect(bulkAdds()).toBeGreaterThanOrEqual(60);

		const askedAt = Date.now();
		const answer = await fetch(`${n8n.baseUrl}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'visitor@example.com' }) });
		const subscriber = (await answer.json()) as { email?: string; status?: string };
		const answeredInMs = Date.now() - askedAt;
		const bulkSentMeanwhile = bulkAdds();

		expect(answer.status).toBe(200);
		expect(subscriber).toMatchObject({ email: 'visitor@example.com' });
		// Two calls (the add and the read-back), each at the next turn, with turns every 0.76 s while the bulk waits.
		expect(answeredInMs).toBeLessThan(5_000);
		// The bulk had most of its items still waiting: first come, the sign-up would have waited for all of them.
		expect(bulkSentMeanwhile).toBeLessThan(BULK_ITEMS / 2);

		// The bulk goes on; it is stopped here rather than waited for (about three minutes at AWeber's pace).
		const before = bulkAdds();
		await new Promise((resolve) => setTimeout(resolve, 3_000));
		expect(bulkAdds()).toBeGreaterThan(before);
		await n8n.rest('POST', `/executions/${executionId}/stop`, {});
		const stopped = await getExecution(n8n, executionId, { wait: true, timeoutMs: 30_000 });
		expect(['canceled', 'error', 'crashed']).toContain(stopped.status);
	});
});
