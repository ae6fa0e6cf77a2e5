// The Broadcast node's Get Link Report (Beta) inside a real n8n, against the sandbox's 2.0-beta endpoint: the
// UUIDs found from the pickers, Return All over the Link header's pages, Limit, and AWeber's not-found answer.
import { aweberWorkflow, byId, importWorkflow, nodeItems, runWorkflow, useSandboxN8nAndCredential } from './lib';

describe('AWeber Broadcast: Get Link Report (Beta) in n8n', () => {
	const env = useSandboxN8nAndCredential();

	const report = (broadcastId: number | string, extra: Record<string, unknown>) => ({
		operation: 'getLinkReport',
		accountId: byId(env.sandbox.seed.accountId),
		listId: byId(env.sandbox.seed.lists.newsletter),
		broadcastId: byId(broadcastId),
		...extra,
	});
	const betaRequests = () => env.sandbox.requests().filter((entry) => entry.path === '/2.0-beta/analytics/reports/broadcasts-links');

	it('reads every page of the page views with Return All, and the top clicks with a Limit', async () => {
		const id = await importWorkflow(
			env.n8n,
			aweberWorkflow('Link report', env.credentialId, [
				{ name: 'Page Views', node: 'aWeberBroadcast', parameters: report(env.sandbox.seed.broadcasts.sent, { linkReportFilter: 'pageviews', returnAll: true }) },
				{ name: 'Top Clicks', node: 'aWeberBroadcast', parameters: report(env.sandbox.seed.broadcasts.sent, { linkReportFilter: 'clicks', limit: 2 }) },
			]),
		);
		const result = await runWorkflow(env.n8n, id);
		expect(result.status).toBe('success');
		const pageViews = nodeItems(result, 'Page Views');
		expect(pageViews.length).toBeGreaterThan(100);
		expect(new Set(pageViews.map((item) => item.url)).size).toBe(pageViews.length);
		for (const item of pageViews) expect(item).toEqual({ url: expect.any(String), unique: expect.any(Number), total: expect.any(Number), type: 'pageview' });
		const topClicks = nodeItems(result, 'Top Clicks');
		expect(topClicks).toHaveLength(2);
		expect(topClicks[0].unique as number).toBeGreaterThanOrEqual(topClicks[1].unique as number);

		const requests = betaRequests();
		expect(requests.map((entry) => [entry.query.filter, entry.query.after === undefined, entry.status])).toEqual([
			['pageviews', true, 200],
			['pageviews', false, 200],
			['clicks', true, 200],
		]);
		expect(requests[0].query).toMatchObject({ account_id: env.sandbox.seed.accountUuid, broadcast_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
	});

	it('fails the node with AWeber\'s not-found answer for a broadcast that does not exist', async () => {
		const id = await importWorkflow(
			env.n8n,
			aweberWorkflow('Link report of nothing', env.credentialId, [
				{ name: 'Report', node: 'aWeberBroadcast', parameters: report(999999, { linkReportFilter: 'clicks', returnAll: true }) },
			]),
		);
		const result = await runWorkflow(env.n8n, id);
		expect(result.status).toBe('error');
		expect(result.runData.Report?.[0]?.error?.message).toMatch(/not found/i);
		expect(betaRequests()).toEqual([]);
	});
});
