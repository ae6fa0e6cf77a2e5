// The "Keep a list in sync" example (examples/keep-list-in-sync.json) as `npm start` imports it, run in a real n8n
// against the sandbox: n8n's own Code, Edit Fields and Compare Datasets nodes with the AWeber nodes; afterwards the
// list holds the example's source, field by field.
import { readFileSync } from 'node:fs';

import { checkListAgainstSource, exampleSource, readList, SYNC_EXAMPLE_FILE, SYNC_NODES } from '../harness/listSync';
import { startSandbox, type Sandbox } from '../sandbox';
import { createAweberCredential, importWorkflow, nodeItems, runWorkflow, startN8n, type N8nInstance, type WorkflowJson } from './lib';

// Pacing is covered by the unit tests; here it would only slow the run down.
const UNLIMITED = { requestsPerWindow: 1_000_000, windowSeconds: 60, lockoutSeconds: 60 };

describe('the "Keep a list in sync" example in n8n, against the sandbox', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let credentialId: string;

	beforeAll(async () => {
		[sandbox, n8n] = await Promise.all([startSandbox({ rateLimit: UNLIMITED }), startN8n()]);
		credentialId = await createAweberCredential(n8n, sandbox, { data: { rateLimitRequests: 1_000_000 } });
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});

	it('runs as imported and leaves the Customers list equal to its source, writing only the differences', async () => {
		const example = JSON.parse(readFileSync(SYNC_EXAMPLE_FILE, 'utf8')) as WorkflowJson;
		// As `npm start` imports it: the example's credential reference points at the instance's credential.
		const nodes = example.nodes.map((node) =>
			node.credentials ? { ...node, credentials: { aWeberOAuth2Api: { id: credentialId, name: 'AWeber' } } } : node,
		);
		const token = () => sandbox.issueToken().access_token;
		const { accountId, lists } = sandbox.seed;
		const before = await readList(sandbox.apiBaseUrl, token(), accountId, lists.customers);
		sandbox.clearRequests();

		const result = await runWorkflow(n8n, await importWorkflow(n8n, { ...example, nodes }));

		expect(result.status).toBe('success');
		expect(nodeItems(result, SYNC_NODES.create).map((item) => item.email)).toEqual(['margaret.hamilton@example.com']);
		expect(nodeItems(result, SYNC_NODES.update).map((item) => item.email).sort()).toEqual(['jean.sammet@example.com', 'sophie.wilson@example.com']);
		const writes = sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/') && entry.method !== 'GET');
		expect(writes.map((entry) => entry.method).sort()).toEqual(['PATCH', 'PATCH', 'POST']);
		const after = await readList(sandbox.apiBaseUrl, token(), accountId, lists.customers);
		expect(checkListAgainstSource(after, exampleSource(), before, { unsubscribeRemoved: false })).toEqual({ lost: [], wrong: [] });
	});
});
