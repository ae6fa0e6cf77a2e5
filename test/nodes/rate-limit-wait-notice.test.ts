// A run that has to wait for the account's rate limit says so in n8n's log (and, in a manual run, the browser
// console): how long it waited, the limit, and how many requests still wait. A run that never waits long says nothing.
import { startTestbed, type AweberTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { byId } from './email-nodes.helpers';

describe('Rate limit: the notice of a long wait', () => {
	let bed: AweberTestbed;
	beforeAll(async () => {
		// The credential allows two requests per second; AWeber itself would allow many more.
		bed = await startTestbed({
			rateLimit: { requestsPerWindow: 1_000, windowSeconds: 60, lockoutSeconds: 60 },
			credential: { rateLimitRequests: 2, rateLimitWindowSeconds: 1 },
		});
	});
	afterAll(async () => await bed.stop());

	async function getAccount(count: number) {
		const logs = recordNodeLogs();
		const startedAt = performance.now();
		try {
			const result = await bed.harness.runNode(
				{ type: 'aWeberAccount', credentialId: bed.credentialId, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
				Array.from({ length: count }, (_, index) => ({ index })),
			);
			expect(result.status).toBe('success');
			const notices = logs.lines.filter((line) => line.message.startsWith('AWeber: waited'));
			return { notices, windowsSpanned: Math.ceil((performance.now() - startedAt) / 1000) };
		} finally {
			logs.restore();
		}
	}

	it('says nothing when no request waited a quarter of a window', async () => {
		expect((await getAccount(2)).notices).toEqual([]);
	});

	it('says how long a request waited, the limit and what still waits, at most once a window', async () => {
		// The two requests just made still count for a second: the first two of these wait for most of it.
		const { notices, windowsSpanned } = await getAccount(6);
		expect(notices.length).toBeGreaterThanOrEqual(1);
		expect(notices.length).toBeLessThanOrEqual(windowsSpanned);
		expect(notices[0].level).toBe('info');
		expect(notices[0].message).toMatch(/^AWeber: waited \d+(\.\d)? (ms|s) to stay under the account's rate limit of 2 requests per 1 s; [1-5] more requests are waiting \(about \d+(\.\d)? (ms|s) to go\)$/);
	}, 30_000);
});
