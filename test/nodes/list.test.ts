import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, byUrl, listPath, run } from './email-nodes.helpers';

describe('AWeber List node', () => {
	const bed = useTestbed();

	const account = () => ({ accountId: byId(bed.sandbox.seed.accountId) });
	const accountPath = () => `/1.0/accounts/${bed.sandbox.seed.accountId}`;

	it('gets one list with its subscriber counts', async () => {
		const result = await run(bed, 'aWeberList', { operation: 'get', ...account(), listId: byId(bed.sandbox.seed.lists.newsletter) });
		expect(result.status).toBe('success');
		expect(result.items).toEqual([
			expect.objectContaining({ id: bed.sandbox.seed.lists.newsletter, name: 'Newsletter', unique_list_id: 'awlist2001', total_subscribers: 20 }),
		]);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ method: 'GET', path: listPath(bed), status: 200 })]);
	});

	it('takes the list by its AWeber URL', async () => {
		const url = `${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${bed.sandbox.seed.lists.bulk}`;
		const result = await run(bed, 'aWeberList', { operation: 'get', ...account(), listId: byUrl(url) });
		expect(result.items).toEqual([expect.objectContaining({ name: 'Bulk' })]);
	});

	it('gets all lists as one item each, in one call of 100', async () => {
		const result = await run(bed, 'aWeberList', { operation: 'getAll', ...account(), returnAll: true });
		expect(result.items.map((list) => list.name)).toEqual(['Newsletter', 'Customers', 'Bulk', 'Empty']);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${accountPath()}/lists`, query: { 'ws.size': '100' } }),
		]);
	});

	it('gets lists up to the limit', async () => {
		const result = await run(bed, 'aWeberList', { operation: 'getAll', ...account(), returnAll: false, limit: 2 });
		expect(result.items.map((list) => list.name)).toEqual(['Newsletter', 'Customers']);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ query: { 'ws.size': '2' } })]);
	});

	it('finds lists by name (any case) and by unique list ID', async () => {
		const byName = await run(bed, 'aWeberList', { operation: 'find', ...account(), name: 'customers', returnAll: true });
		expect(byName.items).toEqual([expect.objectContaining({ id: bed.sandbox.seed.lists.customers })]);
		const byUniqueId = await run(bed, 'aWeberList', { operation: 'find', ...account(), name: 'awlist2003', returnAll: true });
		expect(byUniqueId.items).toEqual([expect.objectContaining({ name: 'Bulk' })]);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${accountPath()}/lists`, query: { 'ws.op': 'find', name: 'customers', 'ws.size': '100' } }),
			expect.objectContaining({ query: { 'ws.op': 'find', name: 'awlist2003', 'ws.size': '100' } }),
		]);
	});

	it('finds nothing for an unknown name, without failing', async () => {
		const result = await run(bed, 'aWeberList', { operation: 'find', ...account(), name: 'No Such List', returnAll: true });
		expect(result.status).toBe('success');
		expect(result.items).toEqual([]);
	});

	it('refuses an empty name before any request', async () => {
		const result = await run(bed, 'aWeberList', { operation: 'find', ...account(), name: '  ', returnAll: true });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The "Name or Unique List ID" field is empty');
		expect(apiCalls(bed)).toEqual([]);
	});

	it('gets the tags of a list as one item per tag (AWeber answers a bare array)', async () => {
		const result = await run(bed, 'aWeberList', { operation: 'getTags', ...account(), listId: byId(bed.sandbox.seed.lists.newsletter) });
		expect(result.status).toBe('success');
		expect(result.items).toEqual(expect.arrayContaining([{ tag: 'vip' }, { tag: 'webinar' }, { tag: 'trial' }, { tag: 'customer' }]));
		expect(result.items).toHaveLength(4);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ method: 'GET', path: `${listPath(bed)}/tags` })]);
	});

	it.each([
		['an object', { tags: ['vip'] }, 'a JSON object ({"tags":["vip"]})'],
		['an HTML page', '<html>maintenance</html>', 'an HTML page (<html>maintenance</html>)'],
		['a list with a number in it', ['vip', 7], 'a JSON array (["vip",7])'],
	])('refuses a tags answer that is %s as unexpected, rather than reading it as no tags', async (_what, body, described) => {
		bed.sandbox.faults.next(1, 'answer', { body, method: 'GET', pathPrefix: `${listPath(bed)}/tags` });
		const result = await run(bed, 'aWeberList', { operation: 'getTags', ...account(), listId: byId(bed.sandbox.seed.lists.newsletter) });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a list of tags");
		expect(result.error?.description).toContain(`While reading the list's tags, AWeber answered ${described} instead of a list of tags.`);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ method: 'GET', path: `${listPath(bed)}/tags`, status: 200 })]);
	});

	it('gets no items for a list without tags', async () => {
		const result = await run(bed, 'aWeberList', { operation: 'getTags', ...account(), listId: byId(bed.sandbox.seed.lists.empty) });
		expect(result.status).toBe('success');
		expect(result.items).toEqual([]);
	});
});
