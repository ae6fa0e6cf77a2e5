import { useTestbed } from '../harness/aweber';
import { SEED_EXTRAS } from '../sandbox';
import { apiCalls, byId, byUrl, callLines, listPath, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed({ resetEachTest: false });

describe('AWeber Segment node', () => {
	it('gets the segments of a list, split-test segments included and marked', async () => {
		const result = await run(bed, 'aWeberSegment', { ...newsletterScope(bed), operation: 'getAll', returnAll: true });
		expect(result.items).toEqual([
			expect.objectContaining({ id: bed.sandbox.seed.segments.active, name: 'Active Subscribers', is_split_test: false }),
			expect.objectContaining({ id: bed.sandbox.seed.segments.splitTest, is_split_test: true }),
			expect.objectContaining({ id: SEED_EXTRAS.vipSegment, name: 'VIP readers' }),
		]);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${listPath(bed)}/segments`, query: { 'ws.size': '100' } }),
		]);
	});

	it('stops at the Limit', async () => {
		const result = await run(bed, 'aWeberSegment', { ...newsletterScope(bed), operation: 'getAll', limit: 1 });
		expect(result.items).toHaveLength(1);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ query: { 'ws.size': '1' } })]);
	});

	it('gets a segment by ID or by URL', async () => {
		const byTypedId = await run(bed, 'aWeberSegment', { ...newsletterScope(bed), operation: 'get', segmentId: byId(SEED_EXTRAS.vipSegment) });
		expect(byTypedId.items).toEqual([expect.objectContaining({ id: SEED_EXTRAS.vipSegment, name: 'VIP readers' })]);
		const link = `${bed.sandbox.apiBaseUrl}${listPath(bed)}/segments/${SEED_EXTRAS.vipSegment}`;
		const byLink = await run(bed, 'aWeberSegment', { ...newsletterScope(bed), operation: 'get', segmentId: byUrl(link) });
		expect(byLink.items).toEqual(byTypedId.items);
		expect(callLines(bed)).toEqual([
			`GET ${listPath(bed)}/segments/${SEED_EXTRAS.vipSegment}`,
			`GET ${listPath(bed)}/segments/${SEED_EXTRAS.vipSegment}`,
		]);
	});

	it('reports a segment of another list as not found, with a hint', async () => {
		const result = await run(bed, 'aWeberSegment', {
			...newsletterScope(bed),
			operation: 'get',
			segmentId: byId(SEED_EXTRAS.customersSegment),
		});
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.description).toMatch(/check the IDs/);
	});
});
