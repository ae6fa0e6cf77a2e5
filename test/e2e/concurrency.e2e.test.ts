// Several items reading all pages of a list at once in a real n8n: the requests of every item, its pages read ahead
// included, share one limit of requests at AWeber at once (nodes/shared/rateLimiter.ts). How n8n starts the items
// decides what overlaps, so the unit test's harness (test/nodes/return-all-pages.test.ts) is not enough on its own.
import { MAX_CONCURRENT_REQUESTS } from '../../nodes/shared/rateLimiter';
import {
	aweberNode,
	byId,
	createAweberCredential,
	importWorkflow,
	itemsWorkflow,
	nodeItems,
	runWorkflow,
	useSandboxAndN8n,
} from './lib';

const ITEMS = 3;
/** The bulk list's 250 subscribers in pages of 20: the first page asked for 100, twelve more read ahead. */
const PAGES_PER_ITEM = 13;

describe('Return All for several items at once in a real n8n', () => {
	const env = useSandboxAndN8n();

	const bulkEmails = () => Array.from({ length: 250 }, (_, index) => `bulk.${String(index + 1).padStart(5, '0')}@example.com`);

	it(`keeps at most ${MAX_CONCURRENT_REQUESTS} requests at AWeber at once, every item's pages read ahead included`, async () => {
		const { sandbox, n8n } = env;
		const credentialId = await createAweberCredential(n8n, sandbox);
		const subscribersPath = `/1.0/accounts/${sandbox.seed.accountId}/lists/${sandbox.seed.lists.bulk}/subscribers`;
		const workflow = itemsWorkflow(
			'Return All for three items',
			{ name: 'Three Items', jsCode: `return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { item: i } }));` },
			aweberNode(
				{
					name: 'Get Many',
					node: 'aWeberSubscriber',
					parameters: {
						operation: 'getAll',
						accountId: byId(sandbox.seed.accountId),
						listId: byId(sandbox.seed.lists.bulk),
						returnAll: true,
					},
					executeOnce: false,
				},
				credentialId,
				[440, 0],
			),
		);
		const workflowId = await importWorkflow(n8n, workflow);

		sandbox.pages.cap(20);
		sandbox.clearRequests();
		let atAweber = 0;
		let most = 0;
		// Each page is answered a little later, so that requests that overlap are seen overlapping.
		sandbox.faults.next(ITEMS * PAGES_PER_ITEM, 'rewrite', {
			rewrite: {},
			pathPrefix: subscribersPath,
			beforeAnswer: async () => {
				atAweber++;
				most = Math.max(most, atAweber);
				await new Promise((resolve) => setTimeout(resolve, 100));
				atAweber--;
			},
		});
		const result = await runWorkflow(n8n, workflowId);

		expect(result.status).toBe('success');
		expect(nodeItems(result, 'Get Many').map((subscriber) => subscriber.email)).toEqual(Array.from({ length: ITEMS }, bulkEmails).flat());
		// Each item asked for each page once: the first for 100 (cut to 20), the others for 20, the last for the 10 left.
		const onePerItem = [[0, '100'], ...Array.from({ length: PAGES_PER_ITEM - 1 }, (_, index) => [20 * (index + 1), index === PAGES_PER_ITEM - 2 ? '10' : '20'])];
		const pages = sandbox
			.requests()
			.filter((entry) => entry.path.startsWith('/1.0/'))
			.map((entry) => [entry.path, entry.status, Number(entry.query['ws.start'] ?? 0), entry.query['ws.size']] as const)
			.sort((a, b) => a[2] - b[2]);
		expect(pages).toEqual(onePerItem.flatMap(([start, size]) => Array.from({ length: ITEMS }, () => [subscribersPath, 200, start, size])));
		expect(most).toBeGreaterThan(1);
		expect(most).toBeLessThanOrEqual(MAX_CONCURRENT_REQUESTS);
	});
});
