import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, byUrl, listPath, newsletterScope, run } from './email-nodes.helpers';

const byEmail = (email: string) => ({ __rl: true, mode: 'email', value: email });

describe('AWeber Subscriber node: reading and searching', () => {
	const bed = useTestbed();

	const subscribersPath = (listId?: number) => `${listPath(bed, listId)}/subscribers`;
	const ada = () => bed.sandbox.seed.subscribers.subscribed;

	describe('Get Many', () => {
		it('returns all subscribers of a big list with exactly ceil(N/100) calls', async () => {
			const bulk = bed.sandbox.seed.lists.bulk;
			const result = await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bulk), returnAll: true });
			expect(result.status).toBe('success');
			expect(result.items).toHaveLength(250);
			expect(result.items[0]).toMatchObject({ email: 'bulk.00001@example.com' });
			expect(result.items[249]).toMatchObject({ email: 'bulk.00250@example.com' });
			expect(new Set(result.items.map((subscriber) => subscriber.id)).size).toBe(250);
			const calls = apiCalls(bed);
			expect(calls).toHaveLength(Math.ceil(250 / 100));
			// Pages may be read ahead in parallel, so the sandbox logs them in the order they were answered.
			const pages = calls.map((call) => [call.method, call.path, call.query['ws.start'] ?? '0']);
			expect(pages.sort((a, b) => Number(a[2]) - Number(b[2]))).toEqual([
				['GET', subscribersPath(bulk), '0'],
				['GET', subscribersPath(bulk), '100'],
				['GET', subscribersPath(bulk), '200'],
			]);
			expect(calls[0].query['ws.size']).toBe('100');
		});

		it('stops at the limit, asking the last page only for what is missing', async () => {
			const bulk = bed.sandbox.seed.lists.bulk;
			const result = await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bulk), returnAll: false, limit: 150 });
			expect(result.items).toHaveLength(150);
			expect(apiCalls(bed).map((call) => call.query['ws.size']).sort()).toEqual(['100', '50']);
		});

		it('lists newest first when asked', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'getAll',
				...newsletterScope(bed),
				returnAll: false,
				limit: 1,
				options: { sortOrder: 'desc' },
			});
			expect(result.items).toEqual([expect.objectContaining({ name: 'Annie Easley' })]);
			expect(apiCalls(bed)[0].query).toEqual({ 'ws.size': '1', sort_order: 'desc' });
		});
	});

	describe('Get', () => {
		it('gets a subscriber by ID', async () => {
			const result = await run(bed, 'aWeberSubscriber', { operation: 'get', ...newsletterScope(bed), subscriberId: byId(ada()) });
			expect(result.items).toEqual([expect.objectContaining({ id: ada(), email: 'ada.lovelace@example.com', status: 'subscribed' })]);
			expect(apiCalls(bed)).toEqual([expect.objectContaining({ method: 'GET', path: `${subscribersPath()}/${ada()}` })]);
		});

		it('gets a subscriber by its AWeber URL', async () => {
			const url = `${bed.sandbox.apiBaseUrl}${subscribersPath()}/${ada()}`;
			const result = await run(bed, 'aWeberSubscriber', { operation: 'get', ...newsletterScope(bed), subscriberId: byUrl(url) });
			expect(result.items).toEqual([expect.objectContaining({ id: ada() })]);
		});

		it('gets a subscriber by email address with one find call', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'get',
				...newsletterScope(bed),
				subscriberId: byEmail('grace.hopper@example.com'),
			});
			expect(result.items).toEqual([expect.objectContaining({ email: 'grace.hopper@example.com', name: 'Grace Hopper' })]);
			expect(apiCalls(bed)).toEqual([
				expect.objectContaining({ method: 'GET', path: subscribersPath(), query: { 'ws.op': 'find', email: 'grace.hopper@example.com' } }),
			]);
		});

		it('says which address is not on the list', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'get',
				...newsletterScope(bed),
				subscriberId: byEmail('nobody@example.com'),
			});
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe('No subscriber with the email address "nobody@example.com" is on this list');
			expect(result.error?.description).toBe('Check the address and the list chosen in the node.');
		});

		it('refuses a malformed email address before any request', async () => {
			const result = await run(
				bed,
				'aWeberSubscriber',
				{ operation: 'get', ...newsletterScope(bed), subscriberId: byEmail('={{ $json.email }}') },
				{ items: [{ email: 'not-an-address' }] },
			);
			// Without an "@" it is read as an ID, and refused as neither.
			expect(result.error?.message).toBe('The "Subscriber" field must be a numeric AWeber ID or an email address, not "not-an-address"');
			expect(apiCalls(bed)).toEqual([]);
		});
	});

	describe('Get Activity', () => {
		it('gets the activity of a subscriber, newest first', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'getActivity',
				...newsletterScope(bed),
				subscriberId: byId(ada()),
				returnAll: true,
			});
			expect(result.status).toBe('success');
			const types = result.items.map((entry) => entry.type);
			expect(types).toEqual(expect.arrayContaining(['subscribed', 'verified']));
			expect(types[types.length - 1]).toBe('subscribed');
			expect(apiCalls(bed)).toEqual([
				expect.objectContaining({ method: 'GET', path: `${subscribersPath()}/${ada()}`, query: { 'ws.op': 'getActivity', 'ws.size': '100' } }),
			]);
		});

		it('finds a subscriber chosen by email first', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'getActivity',
				...newsletterScope(bed),
				subscriberId: byEmail('ada.lovelace@example.com'),
				returnAll: false,
				limit: 2,
			});
			expect(result.items).toHaveLength(2);
			expect(apiCalls(bed).map((call) => [call.path, call.query['ws.op']])).toEqual([
				[subscribersPath(), 'find'],
				[`${subscribersPath()}/${ada()}`, 'getActivity'],
			]);
		});
	});

	describe('A subscriber chosen by email, found before Get Activity', () => {
		const grace = () => bed.sandbox.seed.subscribers.unconfirmed;
		const activity = async (subscriberId: object) =>
			await run(bed, 'aWeberSubscriber', { operation: 'getActivity', ...newsletterScope(bed), subscriberId, returnAll: false, limit: 1 });
		const activityPaths = () => apiCalls(bed).filter((call) => call.query['ws.op'] === 'getActivity').map((call) => call.path);
		const findAnswers = (entries: unknown[]) =>
			bed.sandbox.faults.next(1, 'answer', { body: { entries, start: 0 }, method: 'GET', pathPrefix: subscribersPath() });

		it('takes the address in any capitals, and an address typed in ID mode or as the email mode\'s text', async () => {
			for (const subscriberId of [
				byEmail('Ada.Lovelace@EXAMPLE.com'),
				{ __rl: true, mode: 'id', value: '={{ "ada.lovelace@example.com" }}' },
			]) {
				bed.sandbox.clearRequests();
				const result = await activity(subscriberId);
				expect(result.error).toBeUndefined();
				expect(activityPaths()).toEqual([`${subscribersPath()}/${ada()}`]);
			}
		});

		it('takes an ID given as a number by an expression', async () => {
			const result = await run(
				bed,
				'aWeberSubscriber',
				{ operation: 'getActivity', ...newsletterScope(bed), subscriberId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, returnAll: false, limit: 1 },
				{ items: [{ id: ada() }] },
			);
			expect(result.error).toBeUndefined();
			expect(activityPaths()).toEqual([`${subscribersPath()}/${ada()}`]);
		});

		it('refuses an ID given in the email mode, naming the field', async () => {
			const result = await run(
				bed,
				'aWeberSubscriber',
				{ operation: 'getActivity', ...newsletterScope(bed), subscriberId: byEmail('={{ $json.id }}'), returnAll: false, limit: 1 },
				{ items: [{ id: ada() }] },
			);
			expect(result.error?.message).toBe(`The "Subscriber" field must be an email address, not "${ada()}"`);
			expect(apiCalls(bed)).toEqual([]);
		});

		it('says which address is not on the list', async () => {
			const result = await activity(byEmail('nobody@example.com'));
			expect(result.error?.message).toBe('No subscriber with the email address "nobody@example.com" is on this list');
			expect(activityPaths()).toEqual([]);
		});

		it.each([
			['another address', 'someone.else@example.com'],
			['no address', null],
		])('refuses a found entry with %s', async (_what, email) => {
			findAnswers([{ id: ada(), self_link: `${bed.sandbox.apiBaseUrl}${subscribersPath()}/${ada()}`, email }]);
			const result = await activity(byEmail('ada.lovelace@example.com'));
			expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not the subscriber ada.lovelace@example.com");
			expect(activityPaths()).toEqual([]);
		});

		it('takes a found entry whose address AWeber wrote in other capitals', async () => {
			findAnswers([{ id: ada(), self_link: `${bed.sandbox.apiBaseUrl}${subscribersPath()}/${ada()}`, email: 'Ada.Lovelace@Example.COM' }]);
			const result = await activity(byEmail('ada.lovelace@example.com'));
			expect(result.error).toBeUndefined();
			expect(activityPaths()).toEqual([`${subscribersPath()}/${ada()}`]);
		});

		it('refuses an answer to the find that is no page, saying which address was looked up', async () => {
			bed.sandbox.faults.next(1, 'answer', { body: { status: 'ok' }, method: 'GET', pathPrefix: subscribersPath() });
			const result = await activity(byEmail('ada.lovelace@example.com'));
			expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
			expect(result.error?.description).toContain('While looking up the subscriber ada.lovelace@example.com, AWeber answered');
		});

		it.each([
			['a number id without a self_link', (id: number) => ({ id, self_link: null })],
			['an id as digits in text without a self_link', (id: number) => ({ id: String(id), self_link: null })],
			['an empty id with a self_link', (id: number) => ({ id: '', self_link: `${bed.sandbox.apiBaseUrl}${subscribersPath()}/${id}` })],
			['its id where its self_link names another subscriber', (id: number) => ({ id, self_link: `${bed.sandbox.apiBaseUrl}${subscribersPath()}/${grace()}` })],
		])('goes by %s', async (_what, found) => {
			findAnswers([{ ...found(ada()), email: 'ada.lovelace@example.com' }]);
			const result = await activity(byEmail('ada.lovelace@example.com'));
			expect(result.error).toBeUndefined();
			expect(activityPaths()).toEqual([`${subscribersPath()}/${ada()}`]);
		});
	});

	describe('Get for Message', () => {
		it('gets the subscribers a broadcast was sent to', async () => {
			const campaignId = bed.sandbox.seed.campaigns.broadcast;
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'getForMessage',
				...newsletterScope(bed),
				campaignId: byId(campaignId),
				returnAll: true,
			});
			expect(result.status).toBe('success');
			expect(result.items.length).toBeGreaterThan(0);
			for (const subscriber of result.items) expect(subscriber).toMatchObject({ email: expect.stringContaining('@'), self_link: expect.any(String) });
			expect(apiCalls(bed)).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: `${listPath(bed)}/campaigns/${campaignId}/messages`,
					query: { 'ws.op': 'getSubscribers', 'ws.size': '100' },
				}),
			]);
		});
	});

	describe('Find', () => {
		it('finds subscribers of a list by status', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'find',
				...newsletterScope(bed),
				filters: { status: 'unsubscribed' },
				returnAll: true,
			});
			expect(result.items.map((subscriber) => subscriber.name)).toEqual(['Edsger Dijkstra', 'Frances Allen', 'John McCarthy', 'Annie Easley']);
			for (const subscriber of result.items) expect(subscriber).toMatchObject({ status: 'unsubscribed', list_name: 'Newsletter' });
			expect(apiCalls(bed)).toEqual([
				expect.objectContaining({ method: 'GET', path: subscribersPath(), query: { 'ws.op': 'find', status: 'unsubscribed', 'ws.size': '100' } }),
			]);
		});

		it('sends tags, tags-not-in and custom fields JSON-encoded, with dates as days', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'find',
				...newsletterScope(bed),
				filters: {
					tags: ['webinar'],
					tagsNotIn: ['vip'],
					customFields: { field: [{ name: 'plan', value: 'team' }] },
					subscribedAfter: '2025-01-01T00:00:00',
				},
				returnAll: true,
			});
			expect(result.status).toBe('success');
			expect(result.items.length).toBeGreaterThan(0);
			for (const subscriber of result.items) {
				expect(subscriber.tags).toContain('webinar');
				expect(subscriber.tags).not.toContain('vip');
				expect(subscriber.custom_fields).toMatchObject({ Plan: 'team' });
			}
			expect(apiCalls(bed)[0].query).toEqual({
				'ws.op': 'find',
				tags: '["webinar"]',
				tags_not_in: '["vip"]',
				custom_fields: '{"plan":"team"}',
				subscribed_after: '2025-01-01',
				'ws.size': '100',
			});
		});

		it('sorts by the unsubscribe date, newest first', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'find',
				...newsletterScope(bed),
				filters: { status: 'unsubscribed' },
				options: { sortKey: 'unsubscribed_at', sortOrder: 'desc' },
				returnAll: true,
			});
			expect(result.items[0]).toMatchObject({ name: 'Annie Easley' });
			expect(apiCalls(bed)[0].query).toMatchObject({ sort_key: 'unsubscribed_at', sort_order: 'desc' });
		});

		it('follows every page of a large search (Return All)', async () => {
			const bulk = bed.sandbox.seed.lists.bulk;
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'find',
				...newsletterScope(bed, bulk),
				filters: { status: 'subscribed' },
				returnAll: true,
			});
			expect(result.items).toHaveLength(250);
			expect(apiCalls(bed)).toHaveLength(3);
			for (const call of apiCalls(bed)) expect(call.query).toMatchObject({ 'ws.op': 'find', status: 'subscribed' });
		});

		it.each([
			[250, ['100', '100', '50']],
			[150, ['100', '50']],
		])('with a Limit of %d, follows AWeber\'s links and asks the last page only for what is missing', async (limit, sizes) => {
			const bulk = bed.sandbox.seed.lists.bulk;
			const result = await run(bed, 'aWeberSubscriber', { operation: 'find', ...newsletterScope(bed, bulk), filters: { status: 'subscribed' }, limit });
			expect(result.items).toHaveLength(limit);
			// Each page as AWeber's link has it (no size beyond AWeber's 100), the cursor parameter of other collections left out.
			expect(apiCalls(bed).map((call) => call.query['ws.size'])).toEqual(sizes);
			for (const call of apiCalls(bed)) expect(call.query).not.toHaveProperty('page_size');
		});

		it('refuses a tag filter that is not text, before any request', async () => {
			const result = await run(
				bed,
				'aWeberSubscriber',
				{ operation: 'find', ...newsletterScope(bed), filters: { tags: '={{ $json.tags }}' }, returnAll: true },
				{ items: [{ tags: ['vip', 42] }] },
			);
			expect(result.error?.message).toBe('The "Tags" field must contain only text, but entry 2 is a number');
			expect(apiCalls(bed)).toEqual([]);
		});
	});

	describe('Find in Account', () => {
		it('finds an address on every list of the account', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'findForAccount',
				accountId: byId(bed.sandbox.seed.accountId),
				filters: { email: 'ada.lovelace@example.com' },
				returnAll: true,
			});
			expect(result.items.map((subscriber) => subscriber.list_name)).toEqual(['Newsletter', 'Customers']);
			expect(apiCalls(bed)).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: `/1.0/accounts/${bed.sandbox.seed.accountId}`,
					query: { 'ws.op': 'findSubscribers', email: 'ada.lovelace@example.com', 'ws.size': '100' },
				}),
			]);
		});

		it('takes typed, comma-separated tags', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'findForAccount',
				accountId: byId(bed.sandbox.seed.accountId),
				filters: { tags: 'bulk, sample' },
				returnAll: false,
				limit: 5,
			});
			expect(result.items).toHaveLength(5);
			expect(apiCalls(bed)[0].query).toMatchObject({ tags: '["bulk","sample"]' });
		});
	});
});
