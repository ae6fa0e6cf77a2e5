// Get Statistics restates AWeber's 404 "Campaign not found" for a broadcast not yet sent; any other refusal of the
// statistics reaches the user in AWeber's own words (docs/aweber-behaviour.md#broadcast-statistics).
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { byId, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

const statisticsAnswered = async (status: number, message: string) => {
	bed.sandbox.faults.next(1, 'answer', { status, body: { error: { status, type: 'NotFoundError', message } }, pathPrefix: '/1.0/accounts' });
	const parameters: IDataObject = { ...newsletterScope(bed), operation: 'getStatistics', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), returnAll: true };
	const result = await run(bed, 'aWeberBroadcast', parameters);
	expect(result.error).toBeDefined();
	return result.error!;
};

describe('Get Statistics: which refusals the node restates', () => {
	it('a refusal other than 404 that mentions the campaign is AWeber\'s, not "no statistics yet"', async () => {
		const error = await statisticsAnswered(403, 'Campaign statistics are not available for this account');
		expect(error.message).toBe('Campaign statistics are not available for this account');
		expect(error.description).not.toMatch(/not been sent/);
	});

	it('a 404 that does not name the campaign is AWeber\'s, not "no statistics yet"', async () => {
		const error = await statisticsAnswered(404, 'Resource not found');
		expect(error.message).toBe('Resource not found');
	});

	it('a 404 "Campaign not found" is restated: AWeber\'s words and the advice, then the refusal\'s own description', async () => {
		const error = await statisticsAnswered(404, 'Campaign not found');
		expect(error.message).toBe(`Broadcast ${bed.sandbox.seed.broadcasts.sent} has no statistics yet: AWeber has statistics only once a broadcast is sent`);
		expect(error.description).toBe(
			[
				'AWeber answered "Campaign not found": the broadcast has not been sent yet (or no broadcast of this list has this ID). ' +
					'Choose a sent broadcast, or get the statistics after it is sent.',
				'AWeber has no such campaign. A broadcast becomes a campaign, with statistics, only once it has been sent.',
				'AWeber error type: NotFoundError',
				'HTTP status: 404',
			].join('\n'),
		);
	});
});
