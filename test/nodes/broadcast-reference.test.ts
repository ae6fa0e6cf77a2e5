// The Broadcast node as AWeber's current reference describes it: the unsubscribe statistic names and the
// 2.0-beta link report (docs/aweber-behaviour.md#broadcast-statistics, #beta-link-report).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';
import { request } from 'undici';

import { sandboxCredentialData, useTestbed } from '../harness/aweber';
import { PACKAGE_PREFIX } from '../harness';
import { recordNodeLogs } from '../harness/nodeLogs';
import { SEED_EXTRAS } from '../sandbox';
import { call } from '../sandbox/api-test-client';
import { BROADCAST_STATISTIC_IDS_IN_PATH_ENUM } from '../sandbox/reference/schemas';
import { byId, listPath, newsletterScope, registerSmallPageVariant, run } from './email-nodes.helpers';

const bed = useTestbed();

const broadcast = (parameters: IDataObject, options: { continueOnFail?: boolean; items?: IDataObject[]; credentialId?: string } = {}, type = 'aWeberBroadcast') =>
	run(bed, type, { ...newsletterScope(bed), ...parameters }, options);
const statsPath = () => `${listPath(bed)}/campaigns/b${bed.sandbox.seed.broadcasts.sent}/stats`;
const statRequests = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith(`${statsPath()}/`)).map((entry) => `${entry.path.slice(statsPath().length + 1)} ${entry.status}`);
const betaRequests = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/2.0-beta/'));

describe('AWeber Broadcast node: unsubscribe statistics', () => {
	it('offers exactly the statistics of the reference\'s path enum', () => {
		const nodeType = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}aWeberBroadcast`);
		const statistic = nodeType.description.properties.find((property) => property.name === 'statisticId');
		const offered = (statistic?.options as Array<{ value: string }>).map((option) => option.value);
		expect([...offered].sort()).toEqual([...BROADCAST_STATISTIC_IDS_IN_PATH_ENUM].sort());
	});

	it('asks for daily_unsubscribed, the name in the reference\'s path enum', async () => {
		const result = await broadcast({ operation: 'getStatistic', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), statisticId: 'daily_unsubscribed' });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([expect.objectContaining({ id: 'daily_unsubscribed', value: expect.any(Array) })]);
		expect(statRequests()).toEqual(['daily_unsubscribed 200']);
	});

	it('asks once for the other spelling when AWeber answers 404 for one, and outputs that statistic', async () => {
		bed.sandbox.statisticNames(['unsubscribes']);
		const logs = recordNodeLogs();
		const result = await broadcast({ operation: 'getStatistic', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), statisticId: 'hourly_unsubscribed' }).finally(logs.restore);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([expect.objectContaining({ id: 'hourly_unsubscribed', value: expect.any(Array) })]);
		expect(statRequests()).toEqual(['hourly_unsubscribed 404', 'hourly_unsubscribes 200']);
		// The log says why a second request went out, for the node that sent it.
		const stats = `${bed.sandbox.apiBaseUrl}${statsPath()}`;
		expect(logs.lines).toContainEqual({
			level: 'info',
			message: `AWeber answered 404 at ${stats}/hourly_unsubscribed; asking once more at ${stats}/hourly_unsubscribes`,
			metadata: { node: 'Node Under Test' },
		});
	});

	it('asks once for the enum\'s name when the prose spelling from an expression is answered 404', async () => {
		bed.sandbox.statisticNames(['unsubscribed']);
		const result = await broadcast(
			{ operation: 'getStatistic', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), statisticId: '={{ $json.statistic }}' },
			{ items: [{ statistic: 'daily_unsubscribes' }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([expect.objectContaining({ id: 'daily_unsubscribed', value: expect.any(Array) })]);
		expect(statRequests()).toEqual(['daily_unsubscribes 404', 'daily_unsubscribed 200']);
	});

	it('does not ask under another name for an unknown statistic whose name only starts as an unsubscribe one', async () => {
		const result = await broadcast({ operation: 'getStatistic', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), statisticId: 'daily_unsubscribed_total' });
		expect(result.error?.message).toBe('Statistic not found');
		expect(statRequests()).toEqual(['daily_unsubscribed_total 404']);
	});

	it('the fallback of one item does not stop the other items of the run', async () => {
		bed.sandbox.statisticNames(['unsubscribes']);
		const sent = bed.sandbox.seed.broadcasts.sent;
		// Four requests go at once: the fifth item waits for a turn until the first 404 came back.
		bed.sandbox.faults.next(3, 'slow', { delayMs: 300, pathPrefix: `${statsPath()}/total_opens` });
		const result = await broadcast(
			{ operation: 'getStatistic', broadcastId: byId(sent), statisticId: '={{ $json.statistic }}' },
			{ items: [{ statistic: 'daily_unsubscribed' }, ...Array.from({ length: 4 }, () => ({ statistic: 'total_opens' }))] },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.id)).toEqual(['daily_unsubscribed', 'total_opens', 'total_opens', 'total_opens', 'total_opens']);
		expect(statRequests().filter((line) => line.startsWith('total_opens'))).toEqual(Array.from({ length: 4 }, () => 'total_opens 200'));
	});

	it.each([
		['a 404 of a statistic with one name', 'draft', 'total_opens', undefined],
		['a refusal other than 404 of a statistic with two names', 'sent', 'daily_unsubscribed', 403],
	] as const)('%s stops the run: the items still waiting are not sent', async (_case, first, statistic, status) => {
		if (status) bed.sandbox.faults.next(1, 'answer', { status, body: { error: { status, message: 'Forbidden' } }, pathPrefix: `${statsPath()}/${statistic}` });
		bed.sandbox.faults.next(3, 'slow', { delayMs: 300, pathPrefix: `${statsPath()}/total_opens` });
		const { broadcasts } = bed.sandbox.seed;
		const result = await broadcast(
			{ operation: 'getStatistic', broadcastId: { __rl: true, mode: 'id', value: '={{ $json.broadcast }}' }, statisticId: '={{ $json.statistic }}' },
			{ items: [{ broadcast: broadcasts[first], statistic }, ...Array.from({ length: 4 }, () => ({ broadcast: broadcasts.sent, statistic: 'total_opens' }))] },
		);
		expect(result.error?.httpCode).toBe(String(status ?? 404));
		// The three already on their way are carried out; the fourth waited for a turn and is dropped.
		expect(statRequests().filter((line) => line.startsWith('total_opens'))).toHaveLength(3);
	});

	it('fails with AWeber\'s 404 when neither spelling is known, after asking each once', async () => {
		bed.sandbox.statisticNames([]);
		const result = await broadcast({ operation: 'getStatistic', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), statisticId: 'daily_unsubscribed' });
		expect(result.error?.httpCode).toBe('404');
		expect(statRequests()).toEqual(['daily_unsubscribed 404', 'daily_unsubscribes 404']);
	});

	it('asks a statistic with one name only once on a 404', async () => {
		const result = await broadcast({ operation: 'getStatistic', broadcastId: byId(bed.sandbox.seed.broadcasts.draft), statisticId: 'total_opens' });
		expect(result.error?.httpCode).toBe('404');
		expect(bed.sandbox.requests().filter((entry) => entry.path.includes('/stats/'))).toHaveLength(1);
	});
});

describe('AWeber Broadcast node: Get Link Report (Beta)', () => {
	const sent = () => byId(bed.sandbox.seed.broadcasts.sent);
	const linkReport = (parameters: IDataObject, options = {}, type?: string) =>
		broadcast({ operation: 'getLinkReport', broadcastId: sent(), ...parameters }, options, type);

	it('its broadcast picker offers the sent broadcasts', async () => {
		const nodeType = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}aWeberBroadcast`);
		const node = bed.harness.toNode({ type: 'aWeberBroadcast', credentialId: bed.credentialId, parameters: { ...newsletterScope(bed), operation: 'getLinkReport' } }, 'Node Under Test');
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
		const additionalData = { credentialsHelper: bed.harness.credentials } as unknown as IWorkflowExecuteAdditionalData;
		const search = nodeType.methods?.listSearch?.searchBroadcasts as (this: ILoadOptionsFunctions) => Promise<INodeListSearchResult>;
		const found = await search.call(new LoadOptionsContext(workflow, node, additionalData, 'parameters'));
		expect(found.results.map((result) => result.value)).toEqual([String(bed.sandbox.seed.broadcasts.sent), String(SEED_EXTRAS.welcomeBroadcast)]);
	});

	it('finds the account and broadcast UUIDs from the pickers, then reads the click report, most clicked first', async () => {
		const { seed } = bed.sandbox;
		const result = await linkReport({ returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.url)).toHaveLength(3);
		for (const item of result.items) expect(item).toEqual({ url: expect.stringMatching(/^https:\/\//), unique: expect.any(Number), total: expect.any(Number), type: 'click' });
		const uniques = result.items.map((item) => item.unique as number);
		expect(uniques).toEqual([...uniques].sort((a, b) => b - a));

		const token = bed.sandbox.issueToken().access_token;
		const broadcastUuid = (await call(bed.sandbox, 'GET', `${listPath(bed).slice('/1.0'.length)}/broadcasts/${seed.broadcasts.sent}`, { token })).json().uuid;
		expect(broadcastUuid).toMatch(/^[0-9a-f-]{36}$/);
		const calls = bed.sandbox.requests().map((entry) => `${entry.method} ${entry.path}`);
		expect(calls.slice(0, 3)).toEqual([
			`GET /1.0/accounts/${seed.accountId}`,
			`GET ${listPath(bed)}/broadcasts/${seed.broadcasts.sent}`,
			'GET /2.0-beta/analytics/reports/broadcasts-links',
		]);
		expect(betaRequests()[0].query).toEqual({
			account_id: seed.accountUuid,
			broadcast_id: broadcastUuid,
			filter: 'clicks',
			sort_by: 'unique',
			sort_asc: 'false',
			page_size: '100',
		});
	});

	it('Return All follows the Link header through every page of the page views', async () => {
		const result = await linkReport({ linkReportFilter: 'pageviews', linkReportSortBy: 'total', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThan(100);
		expect(new Set(result.items.map((item) => item.url)).size).toBe(result.items.length);
		const totals = result.items.map((item) => item.total as number);
		expect(totals).toEqual([...totals].sort((a, b) => b - a));
		expect(betaRequests().map((entry) => entry.query.after === undefined)).toEqual([true, false]);
	});

	it('Return All with small pages gives the same items, one request per page', async () => {
		const whole = await linkReport({ linkReportFilter: 'pageviews', returnAll: true });
		bed.sandbox.clearRequests();
		const smallPages = registerSmallPageVariant(bed, 'aWeberBroadcast', 40);
		const paged = await linkReport({ linkReportFilter: 'pageviews', returnAll: true }, {}, smallPages);
		expect(paged.items).toEqual(whole.items);
		expect(betaRequests()).toHaveLength(Math.ceil(whole.items.length / 40));
	});

	it('Limit stops at the limit and asks the last page for no more than it still needs', async () => {
		const result = await linkReport({ linkReportFilter: 'pageviews', returnAll: false, limit: 120 });
		expect(result.items).toHaveLength(120);
		expect(betaRequests().map((entry) => entry.query.page_size)).toEqual(['100', '20']);
	});

	it('sends the minimum and maximum unique counts', async () => {
		const result = await linkReport({ linkReportFilter: 'pageviews', returnAll: true, linkReportOptions: { minCount: 5, maxCount: 6 } });
		expect(result.items.length).toBeGreaterThan(0);
		for (const item of result.items) expect([5, 6]).toContain(item.unique);
		expect(betaRequests()[0].query).toMatchObject({ min_count: '5', max_count: '6' });
	});

	describe('when AWeber\'s beta API does not know the broadcast or the account', () => {
		// Stands between the node and the sandbox and gives the v1 answers UUIDs the beta API has never seen.
		let proxy: Server;
		let proxyCredential: string;
		const unknownUuid = '00000000-0000-4000-8000-00000000beef';
		let unknownTo: 'account' | 'broadcast' = 'account';
		beforeAll(async () => {
			proxy = createServer((incoming, outgoing) => {
				void (async () => {
					const answer = await request(`${bed.sandbox.apiBaseUrl}${incoming.url}`, {
						method: 'GET',
						headers: { authorization: incoming.headers.authorization ?? '' },
					});
					let text = await answer.body.text();
					const path = incoming.url ?? '';
					if ((unknownTo === 'broadcast' && /\/broadcasts\/\d+$/.test(path)) || (unknownTo === 'account' && /\/accounts\/\d+$/.test(path))) {
						text = text.replace(/"uuid": ?"[^"]*"/, `"uuid":"${unknownUuid}"`);
					}
					outgoing.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') });
					outgoing.end(text);
				})();
			});
			await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
			const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
			proxyCredential = bed.harness.addCredential({ ...sandboxCredentialData(bed.sandbox), apiBaseUrl: proxyUrl });
		});
		afterAll(async () => await new Promise((resolve) => proxy.close(resolve)));

		it('says the broadcast is not known to the link report, in AWeber\'s words and with a hint', async () => {
			unknownTo = 'broadcast';
			const result = await linkReport({}, { credentialId: proxyCredential });
			expect(result.error?.message).toBe('The requested broadcast could not be found');
			expect(result.error?.httpCode).toBe('404');
			expect(result.error?.description).toContain("AWeber's link report (beta) does not know this broadcast");
		});

		it('says the account is not known to the link report, and continues on fail per item', async () => {
			unknownTo = 'account';
			const result = await linkReport({}, { continueOnFail: true, credentialId: proxyCredential });
			expect(result.items).toEqual([expect.objectContaining({ error: 'The requested account could not be found' })]);
			const failed = await linkReport({}, { credentialId: proxyCredential });
			expect(failed.error?.httpCode).toBe('404');
			expect(failed.error?.description).toContain("AWeber's link report (beta) does not know this account");
		});
	});
});
