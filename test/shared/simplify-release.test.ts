// Simplify on a collection page lets go of the page's raw entries as soon as they are reshaped: n8n's HTTP client
// still holds its answer for a while, and during a Return All that reads pages ahead the raw entries would otherwise
// outlive V8's young generation and double the read's peak memory (bench/RESULTS.md, Return All; measured there).
import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { simplifySubscribers } from '../../nodes/shared/simplify';

const LIST = 'https://api.aweber.com/1.0/accounts/1/lists/2';
const raw = (id: number) => ({ id, email: `s${id}@example.com`, ad_tracking: 'x', self_link: `${LIST}/subscribers/${id}`, misc_notes: 'n' });

async function simplify(items: INodeExecutionData[], simplifyOn = true): Promise<INodeExecutionData[]> {
	const context = { getNodeParameter: () => simplifyOn } as unknown as IExecuteSingleFunctions;
	return await simplifySubscribers.call(context, items);
}

describe('Simplify on a page of subscribers', () => {
	it("outputs the reshaped entries with the page's envelope, and empties the raw page's list of entries", async () => {
		const page = { entries: [raw(1), raw(2)], total_size: 2, start: 0, next_collection_link: `${LIST}/subscribers?ws.start=2` };
		const [out] = await simplify([{ json: page }]);

		expect(out.json).toEqual({
			entries: [
				{ id: 1, email: 's1@example.com', list_id: 2, list_link: LIST, self_link: `${LIST}/subscribers/1` },
				{ id: 2, email: 's2@example.com', list_id: 2, list_link: LIST, self_link: `${LIST}/subscribers/2` },
			],
			total_size: 2,
			start: 0,
			next_collection_link: `${LIST}/subscribers?ws.start=2`,
		});
		expect(page.entries).toEqual([]);
	});

	it('leaves one subscriber, and any page with Simplify off, as AWeber sent it', async () => {
		const one = raw(3);
		const [single] = await simplify([{ json: one }]);
		expect(single.json).toMatchObject({ id: 3, list_id: 2 });
		expect(one).toEqual(raw(3));

		const page = { entries: [raw(4)], total_size: 1, start: 0 };
		const [unchanged] = await simplify([{ json: page }], false);
		expect(unchanged.json).toBe(page);
		expect(page.entries).toEqual([raw(4)]);
	});
});
