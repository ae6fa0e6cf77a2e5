// Get Link Report (Beta) takes the account and broadcast by UUID, read from their v1 answers
// (docs/aweber-behaviour.md#beta-link-report): an answer without one, or with an empty one, fails the item naming
// which, and the report is not asked for without it.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { byId, listPath, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

describe('Get Link Report (Beta): an answer without the UUID', () => {
	const answerPath = (what: 'account' | 'broadcast') =>
		what === 'account' ? `/1.0/accounts/${bed.sandbox.seed.accountId}` : `${listPath(bed)}/broadcasts/${bed.sandbox.seed.broadcasts.sent}`;

	it.each([
		['account', 'no uuid', {}],
		['account', 'an empty uuid', { uuid: '' }],
		['broadcast', 'no uuid', {}],
		['broadcast', 'an empty uuid', { uuid: '' }],
	] as const)('the %s answered with %s: the item fails naming it, and the report is not asked for', async (what, _case, uuid: IDataObject) => {
		const path = answerPath(what);
		bed.sandbox.faults.next(1, 'answer', { pathPrefix: path, method: 'GET', body: { id: 1, self_link: `${bed.sandbox.apiBaseUrl}${path}`, ...uuid } });
		const result = await run(bed, 'aWeberBroadcast', {
			...newsletterScope(bed),
			operation: 'getLinkReport',
			broadcastId: byId(bed.sandbox.seed.broadcasts.sent),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`AWeber gave no UUID for the ${what}`);
		expect(result.error?.description).toBe("The link report (beta) identifies accounts and broadcasts by UUID, which AWeber's answer did not include.");
		expect(bed.sandbox.requests().filter((entry) => entry.path.startsWith('/2.0-beta/'))).toEqual([]);
	});
});

describe('Get Link Report (Beta) under Continue On Fail: an account or broadcast AWeber does not know', () => {
	it.each(['account', 'broadcast'] as const)('the %s read fails its own item, and the error stored with it names that item', async (what) => {
		const { accountId, broadcasts } = bed.sandbox.seed;
		const result = await run(
			bed,
			'aWeberBroadcast',
			{
				...newsletterScope(bed),
				accountId: { __rl: true, mode: 'id', value: '={{ $json.account }}' },
				operation: 'getLinkReport',
				broadcastId: { __rl: true, mode: 'id', value: '={{ $json.broadcast }}' },
			},
			{
				continueOnFail: true,
				items: [
					{ account: accountId, broadcast: broadcasts.sent },
					{ account: what === 'account' ? 999999 : accountId, broadcast: what === 'broadcast' ? 999999 : broadcasts.sent },
				],
			},
		);
		expect(result.status).toBe('success');
		const output = result.run.data.resultData.runData['Node Under Test'][0].data?.main[0] ?? [];
		const failed = output.filter((item) => item.error !== undefined);
		expect(failed.map((item) => item.json)).toEqual([{ error: expect.stringMatching(/not found/i) }]);
		expect(failed[0].error?.context.itemIndex).toBe(1);
	});
});

describe('Get Link Report (Beta): a report answer that is no list', () => {
	it.each([
		['a JSON object', { status: 'ok' }, 'a JSON object ({"status":"ok"})'],
		['an HTML page', '<html>down</html>', 'an HTML page (<html>down</html>)'],
	])('%s is refused as unexpected, naming what AWeber answered', async (_case, body, named) => {
		bed.sandbox.faults.next(1, 'answer', { pathPrefix: '/2.0-beta/', body });
		const result = await run(bed, 'aWeberBroadcast', {
			...newsletterScope(bed),
			operation: 'getLinkReport',
			broadcastId: byId(bed.sandbox.seed.broadcasts.sent),
			returnAll: true,
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(result.error?.description).toContain(`AWeber answered ${named} instead of a page of an AWeber collection.`);
	});
});
