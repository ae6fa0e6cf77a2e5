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
