// Return All and Limit on an offset collection: which pages AWeber is asked for, a few at a time, and how a read that
// would never end is stopped (nodes/shared/collections.ts, docs/aweber-behaviour.md#collections).
import { MAX_CONCURRENT_REQUESTS } from '../../nodes/shared/rateLimiter';
import { useTestbed } from '../harness/aweber';
import { call } from '../sandbox/api-test-client';
import { apiCalls, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

const bulk = () => bed.sandbox.seed.lists.bulk;
const subscribersPath = () => `/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${bulk()}/subscribers`;
const bulkEmails = (from: number, to: number) =>
	Array.from({ length: to - from }, (_, index) => `bulk.${String(from + index + 1).padStart(5, '0')}@example.com`);
const getMany = async (parameters: Record<string, unknown>) =>
	await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bulk()), ...parameters });
/** The three pages of the list's 250 subscribers, by the `ws.size` the second and the last were asked for. */
const threePages = (secondSize: string | undefined, lastSize: string) => [
	[0, '100'],
	[100, secondSize],
	[200, lastSize],
];
/** `ws.start`/`ws.size` of each page read, in list order. */
const pagesAsked = () =>
	apiCalls(bed)
		.map((call) => [Number(call.query['ws.start'] ?? 0), call.query['ws.size']] as const)
		.sort((a, b) => a[0] - b[0]);

describe('Return All on the 250 subscribers of a list', () => {
	it('asks for each further page once, the last one for the entries left, and outputs them in list order', async () => {
		const result = await getMany({ returnAll: true });
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(bulkEmails(0, 250));
		expect(pagesAsked()).toEqual(threePages('100', '50'));
	});

	it('with pages of 20, asks for each of the twelve further pages once, three at a time to the end', async () => {
		bed.sandbox.pages.cap(20);
		const result = await getMany({ returnAll: true });
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(bulkEmails(0, 250));
		expect(pagesAsked()).toEqual([[0, '100'], ...Array.from({ length: 12 }, (_, index) => [20 * (index + 1), index === 11 ? '10' : '20'])]);
	});

	it('asks for the further pages together, not each after the one before', async () => {
		let askedForThird = () => {};
		const thirdAsked = new Promise<boolean>((resolve) => (askedForThird = () => resolve(true)));
		let together: boolean | undefined;
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: {}, pathPrefix: subscribersPath(), query: { 'ws.start': '200' }, beforeAnswer: () => askedForThird() });
		bed.sandbox.faults.next(1, 'rewrite', {
			rewrite: {},
			pathPrefix: subscribersPath(),
			query: { 'ws.start': '100' },
			// The second page is answered once the third was asked for; read one after the other, it never is (a bound, not a time measured).
			beforeAnswer: async () => {
				together = await Promise.race([thirdAsked, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
			},
		});
		const result = await getMany({ returnAll: true });
		expect(result.items).toHaveLength(250);
		expect(together).toBe(true);
	});
});

describe('Return All for several items at once', () => {
	it(`keeps at most ${MAX_CONCURRENT_REQUESTS} requests at AWeber at once, every item's pages read ahead included`, async () => {
		bed.sandbox.pages.cap(20);
		let atAweber = 0;
		let most = 0;
		// Each page is answered a little later, so that requests that overlap are seen overlapping.
		bed.sandbox.faults.next(3 * 13, 'rewrite', {
			rewrite: {},
			pathPrefix: subscribersPath(),
			beforeAnswer: async () => {
				atAweber++;
				most = Math.max(most, atAweber);
				await new Promise((resolve) => setTimeout(resolve, 40));
				atAweber--;
			},
		});
		const result = await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bulk()), returnAll: true }, { items: [{}, {}, {}] });
		expect(result.items).toHaveLength(3 * 250);
		expect(apiCalls(bed)).toHaveLength(3 * 13);
		expect(most).toBeGreaterThan(1);
		expect(most).toBeLessThanOrEqual(MAX_CONCURRENT_REQUESTS);
	});
});

describe('Return All when the list grew while it was read', () => {
	it.each([200, 100])('follows the next page past the pages a total_size of %d planned', async (totalSize) => {
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { totalSize }, pathPrefix: subscribersPath() });
		const result = await getMany({ returnAll: true });
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(bulkEmails(0, 250));
		expect(pagesAsked()).toEqual(threePages('100', '100'));
	});
});

describe('Pages read one after the other (no total_size, or a link the plan cannot use)', () => {
	it('Find with a Limit of 230 asks each further page for the entries still wanted, by ws.size alone', async () => {
		const result = await run(bed, 'aWeberSubscriber', { operation: 'find', ...newsletterScope(bed, bulk()), filters: { status: 'subscribed' }, returnAll: false, limit: 230 });
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(bulkEmails(0, 230));
		expect(pagesAsked()).toEqual(threePages('100', '30'));
		for (const call of apiCalls(bed)) expect(call.query).not.toHaveProperty('page_size');
	});

	it('Return All follows a next link without ws.size as it is', async () => {
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { nextCollectionLink: `${bed.sandbox.apiBaseUrl}${subscribersPath()}?ws.start=100` }, pathPrefix: subscribersPath() });
		const result = await getMany({ returnAll: true });
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(bulkEmails(0, 250));
		expect(pagesAsked()).toEqual(threePages(undefined, '100'));
	});

	it('Return All follows a next link without ws.start as it is: it plans no pages from a start it does not give', async () => {
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { nextCollectionLink: `${bed.sandbox.apiBaseUrl}${subscribersPath()}?ws.size=100` }, pathPrefix: subscribersPath() });
		await getMany({ returnAll: true });
		expect(apiCalls(bed).slice(0, 2).map((call) => call.query)).toEqual([{ 'ws.size': '100' }, { 'ws.size': '100' }]);
	});

	it.each([
		['Return All: the first page', { operation: 'getAll', returnAll: true }, {}, 0],
		['Find: the second page', { operation: 'find', filters: { status: 'subscribed' }, returnAll: true }, { 'ws.start': '100' }, 100],
	])('%s without entries ends the read, though it links a next page', async (_case, parameters, query, outputCount) => {
		const nextPage = `${bed.sandbox.apiBaseUrl}${subscribersPath()}?ws.op=find&status=subscribed&ws.start=200&ws.size=100`;
		bed.sandbox.faults.next(1, 'answer', { body: { entries: [], start: 0, total_size: 250, next_collection_link: nextPage }, pathPrefix: subscribersPath(), query });
		const result = await run(bed, 'aWeberSubscriber', { ...newsletterScope(bed, bulk()), ...parameters });
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(outputCount);
		expect(apiCalls(bed)).toHaveLength(outputCount === 0 ? 1 : 2);
	});
});

describe('A Limit', () => {
	it('outputs no more than the Limit when AWeber answers more entries than asked', async () => {
		const token = bed.sandbox.issueToken().access_token;
		const threeEntries = (await call(bed.sandbox, 'GET', subscribersPath().slice('/1.0'.length), { token, query: { 'ws.size': '3' } })).json();
		bed.sandbox.clearRequests();
		bed.sandbox.faults.next(1, 'answer', { body: threeEntries, pathPrefix: subscribersPath() });
		const result = await getMany({ returnAll: false, limit: 2 });
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(bulkEmails(0, 2));
		expect(apiCalls(bed)).toHaveLength(1);
	});
});

describe('A read that would never end is stopped', () => {
	it('names the first 120 characters of a next page already read, and what was done', async () => {
		const padded = `${bed.sandbox.apiBaseUrl}${subscribersPath()}?ws.start=100&ws.size=100&padding=${'x'.repeat(150)}`;
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { nextCollectionLink: padded }, pathPrefix: subscribersPath() });
		bed.sandbox.faults.next(5, 'rewrite', { rewrite: { nextCollectionLink: 'self' }, pathPrefix: subscribersPath(), query: { 'ws.start': '200' } });
		const result = await getMany({ returnAll: true });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: its next page is a page already read");
		const shown = /^The next_collection_link of an AWeber page points back to a page this read already had \((.*)\), so the collection would never end\. (.*)$/.exec(
			result.error?.description ?? '',
		);
		expect(shown?.[1]).toHaveLength(120);
		expect(shown?.[1]).toMatch(/ws\.start=200&ws\.size=50&padding=x+$/);
		expect(shown?.[2]).toBe(
			'The read was stopped and nothing was output for it. This is usually a passing fault at AWeber or in a proxy between n8n and AWeber: run the step again later.',
		);
	});
});

describe('A next page that is no link is refused before anything is sent', () => {
	it.each([
		['Return All (pages planned from total_size)', { operation: 'getAll', returnAll: true }],
		['Find with a Limit past the first page (pages sized to the entries left)', { operation: 'find', filters: { status: 'subscribed' }, returnAll: false, limit: 150 }],
	])('%s', async (_case, parameters) => {
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { nextCollectionLink: 'page two' }, pathPrefix: subscribersPath() });
		const result = await run(bed, 'aWeberSubscriber', { ...newsletterScope(bed, bulk()), ...parameters });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Refused to send the AWeber credential to "page two"');
		expect(apiCalls(bed)).toHaveLength(1);
	});
});

describe('A Limit from an expression', () => {
	const limitedBy = async (limits: Array<number | string | null>) =>
		await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bulk()), limit: '={{ $json.limit }}' }, { continueOnFail: true, items: limits.map((limit) => ({ limit })) });

	it.each([
		[0, 'must be at least 1, not 0'],
		[-5, 'must be at least 1, not -5'],
		[2.5, 'must be a whole number, not 2.5'],
		['many', 'must be a number, not "many"'],
		['', 'must be a number, not ""'],
		['  ', 'must be a number, not "  "'],
		[null, 'must be a number, not null'],
	])('%p is refused before any request, naming the field, and the next item is read', async (limit, problem) => {
		const result = await limitedBy([limit, 2]);
		const [refused, ...read] = result.output('Node Under Test');
		expect(refused.error?.message).toBe(`The "Limit" field ${problem}`);
		expect(read.map((item) => item.json.email)).toEqual(bulkEmails(0, 2));
		expect(apiCalls(bed).map((call) => call.query['ws.size'])).toEqual(['2']);
	});

	it('is not read under Return All, where no Limit applies', async () => {
		const result = await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bulk()), returnAll: true, limit: '={{ $json.limit }}' }, { items: [{ limit: 0 }] });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(250);
	});

	it('takes a whole number written as text', async () => {
		const result = await limitedBy(['3']);
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(bulkEmails(0, 3));
	});
});
