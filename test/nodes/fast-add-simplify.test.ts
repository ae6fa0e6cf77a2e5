// "Output: Request Summary" (an add in one call instead of two) and the Simplify toggle of the Subscriber and
// Broadcast nodes: what each outputs, field by field, and the calls AWeber received.
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { useAnswerLosingProxy } from '../harness/answerLosingProxy';
import { useTestbed, type AweberTestbed } from '../harness/aweber';
import { apiCalls, byId, callLines, listPath, newsletterScope, PURCHASE_FIELDS, registerSmallPageVariant, run } from './email-nodes.helpers';

const SIMPLIFIED_SUBSCRIBER_KEYS = [
	'id',
	'email',
	'name',
	'status',
	'tags',
	'custom_fields',
	'subscribed_at',
	'unsubscribed_at',
	'list_id',
	'list_link',
	'self_link',
];

/** A subscriber as AWeber stores it, read straight from the sandbox (not through the nodes). */
async function storedSubscriber(bed: AweberTestbed, listId: number, email: string, apiBaseUrl = bed.sandbox.apiBaseUrl): Promise<IDataObject> {
	const token = bed.sandbox.issueToken();
	const answer = await request(
		`${apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${listId}/subscribers?ws.op=find&email=${encodeURIComponent(email)}`,
		{ headers: { authorization: `Bearer ${token.access_token}` } },
	);
	const [found] = ((await answer.body.json()) as { entries: IDataObject[] }).entries;
	return found;
}

describe('Output: Request Summary (one call per add)', () => {
	const bed = useTestbed();

	const newsletter = () => bed.sandbox.seed.lists.newsletter;
	const listLink = () => `${bed.sandbox.apiBaseUrl}${listPath(bed)}`;
	const subscriber = (parameters: IDataObject, options: { items?: IDataObject[] } = {}) =>
		run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters }, options);

	describe('Create', () => {
		it('outputs the new subscriber\'s ID and link, the list and every field sent, without reading it back', async () => {
			const result = await subscriber({
				operation: 'create',
				output: 'summary',
				email: 'fast.person@example.com',
				additionalFields: {
					name: 'Fast Person',
					adTracking: 'Spring-Promo',
					miscNotes: 'From the fair',
					ipAddress: '204.194.222.28',
					lastFollowupMessageNumberSent: 1001,
					tags: ['vip', 'fair-2025'],
					customFields: { field: [{ name: 'Company', value: 'Acme' }, { name: 'Plan', value: 'pro' }] },
				},
			});
			expect(result.status).toBe('success');
			// The list's custom fields are read once per run (unknown names are refused before the add); no read-back.
			expect(callLines(bed)).toEqual([`GET ${listPath(bed)}/custom_fields`, `POST ${listPath(bed)}/subscribers`]);
			const stored = await storedSubscriber(bed, newsletter(), 'fast.person@example.com');
			expect(result.items).toEqual([
				{
					id: stored.id,
					email: 'fast.person@example.com',
					name: 'Fast Person',
					ad_tracking: 'Spring-Promo',
					misc_notes: 'From the fair',
					ip_address: '204.194.222.28',
					last_followup_message_number_sent: 1001,
					tags: ['vip', 'fair-2025'],
					custom_fields: { Company: 'Acme', Plan: 'pro' },
					list_id: newsletter(),
					list_link: listLink(),
					self_link: stored.self_link,
				},
			]);
		});

		it('in a bulk run, costs one POST per item and no GET; the default output costs a POST and a GET per item', async () => {
			const items = Array.from({ length: 12 }, (_, index) => ({ email: `fast-bulk-${index}@example.com` }));
			const fast = await subscriber({ operation: 'create', output: 'summary', email: '={{ $json.email }}' }, { items });
			expect(fast.status).toBe('success');
			expect(fast.items.map((item) => item.email)).toEqual(items.map((item) => item.email));
			for (const item of fast.items) expect(Object.keys(item)).toEqual(['id', 'email', 'list_id', 'list_link', 'self_link']);
			const fastCalls = apiCalls(bed);
			expect(fastCalls.filter((call) => call.method === 'POST' && call.status === 201)).toHaveLength(12);
			expect(fastCalls.filter((call) => call.method === 'GET')).toEqual([]);
			expect(fastCalls).toHaveLength(12);
			// Each output links the subscriber AWeber created for that item.
			for (const [index, item] of fast.items.entries()) {
				expect(item.self_link).toBe((await storedSubscriber(bed, newsletter(), items[index].email)).self_link);
			}

			bed.sandbox.clearRequests();
			const slowItems = items.map((item) => ({ email: item.email.replace('fast', 'slow') }));
			const slow = await subscriber({ operation: 'create', email: '={{ $json.email }}' }, { items: slowItems });
			expect(slow.items.map((item) => item.email)).toEqual(slowItems.map((item) => item.email));
			const slowCalls = apiCalls(bed);
			expect(slowCalls.filter((call) => call.method === 'POST')).toHaveLength(12);
			expect(slowCalls.filter((call) => call.method === 'GET')).toHaveLength(12);
		});

		it('by default outputs the subscriber read back from AWeber, simplified', async () => {
			const result = await subscriber({
				operation: 'create',
				email: 'two.calls@example.com',
				additionalFields: { name: 'Two Calls', tags: ['vip'], adTracking: 'Fair' },
			});
			expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 201', 'GET 200']);
			const stored = await storedSubscriber(bed, newsletter(), 'two.calls@example.com');
			expect(result.items).toEqual([
				{
					id: stored.id,
					email: 'two.calls@example.com',
					name: 'Two Calls',
					status: 'subscribed',
					tags: ['vip'],
					custom_fields: { Company: null, Plan: null, Birthday: null },
					subscribed_at: stored.subscribed_at,
					unsubscribed_at: null,
					list_id: newsletter(),
					list_link: listLink(),
					self_link: stored.self_link,
				},
			]);
		});

		it('with Simplify off, outputs AWeber\'s whole subscriber', async () => {
			const result = await subscriber({ operation: 'create', email: 'whole@example.com', simplify: false, additionalFields: { adTracking: 'Fair' } });
			const { list_link: _listLink, list_name: _listName, ...stored } = await storedSubscriber(bed, newsletter(), 'whole@example.com');
			expect(result.items).toEqual([{ ...stored, http_etag: expect.any(String) }]);
			expect(result.items[0]).toMatchObject({ ad_tracking: 'fair', is_verified: expect.any(Boolean), uuid: expect.any(String) });
		});

		it('on a confirmed opt-in list, the summary has no status: AWeber decides it (unconfirmed there)', async () => {
			const empty = bed.sandbox.seed.lists.empty;
			const result = await subscriber({ operation: 'create', listId: byId(empty), output: 'summary', email: 'optin@example.com' });
			expect(result.items[0]).not.toHaveProperty('status');
			expect(result.items[0]).toMatchObject({ list_id: empty, list_link: `${bed.sandbox.apiBaseUrl}${listPath(bed, empty)}` });
			expect(await storedSubscriber(bed, empty, 'optin@example.com')).toMatchObject({ status: 'unconfirmed' });
		});
	});

	describe('Create or Update', () => {
		it('adds a new address in one call', async () => {
			const result = await subscriber({ operation: 'upsert', output: 'summary', email: 'upsert.fast@example.com', additionalFields: { tags: ['webinar'] } });
			expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 201']);
			// update_existing is a switch of the request, not a field of the subscriber.
			expect(apiCalls(bed)[0].body).toMatchObject({ update_existing: 'true' });
			const stored = await storedSubscriber(bed, newsletter(), 'upsert.fast@example.com');
			expect(result.items).toEqual([
				{ id: stored.id, email: 'upsert.fast@example.com', tags: ['webinar'], list_id: newsletter(), list_link: listLink(), self_link: stored.self_link },
			]);
		});

		it('updates an existing address in one call: the summary names that subscriber and the tags sent', async () => {
			const grace = bed.sandbox.seed.subscribers.subscribed + 1;
			const result = await subscriber({
				operation: 'upsert',
				output: 'summary',
				email: 'grace.hopper@example.com',
				additionalFields: { name: 'Rear Admiral Hopper', tags: ['upsell'] },
			});
			expect(result.items).toEqual([
				{
					id: grace,
					email: 'grace.hopper@example.com',
					name: 'Rear Admiral Hopper',
					tags: ['upsell'],
					list_id: newsletter(),
					list_link: listLink(),
					self_link: `${listLink()}/subscribers/${grace}`,
				},
			]);
			expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 201']);
			// AWeber added the tags to the subscriber's own.
			expect((await storedSubscriber(bed, newsletter(), 'grace.hopper@example.com')).tags).toEqual(['trial', 'customer', 'upsell']);
		});
	});

	describe('Track Purchase', () => {
		const purchase = { ...PURCHASE_FIELDS, email: 'buyer.fast@example.com' };

		it('outputs what was sent, the buyer\'s link and the activity link, in one call', async () => {
			const result = await subscriber({
				...purchase,
				output: 'summary',
				additionalFields: { name: 'Bea Buyer', tags: ['buyer'], eventTime: '2025-03-01T10:00:00+00:00' },
			});
			expect(result.status).toBe('success');
			expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 202']);
			const stored = await storedSubscriber(bed, newsletter(), 'buyer.fast@example.com');
			expect(result.items).toEqual([
				{
					id: stored.id,
					email: 'buyer.fast@example.com',
					name: 'Bea Buyer',
					ip_address: '204.194.222.28',
					product_name: 'Trail Jacket',
					vendor: 'Sandbox Store',
					event_note: 'Order 1001',
					url: 'https://sandbox-outfitters.example/checkout',
					currency: 'USD',
					value: 49.5,
					event_time: '2025-03-01T10:00:00+00:00',
					tags: ['buyer'],
					list_id: newsletter(),
					list_link: listLink(),
					self_link: stored.self_link,
					purchase_activity_link: `${stored.self_link as string}?ws.op=getActivity`,
				},
			]);
		});

		it('by default reads the buyer back (two calls)', async () => {
			const result = await subscriber(purchase);
			expect(result.items).toEqual([
				expect.objectContaining({ email: 'buyer.fast@example.com', status: 'subscribed', purchase_activity_link: expect.stringContaining('ws.op=getActivity') }),
			]);
			expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 202', 'GET 200']);
		});
	});
});

describe('An add AWeber answers without naming the subscriber (no Location)', () => {
	const bed = useTestbed();
	const subscriber = (parameters: IDataObject) => run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters });

	it.each([
		['Create', { operation: 'create', email: 'no.location@example.com', simplify: false }],
		['Create, Request Summary', { operation: 'create', output: 'summary', email: 'no.location@example.com' }],
		['Create or Update, Request Summary', { operation: 'upsert', output: 'summary', email: 'no.location@example.com' }],
		['Track Purchase, Request Summary', { ...PURCHASE_FIELDS, output: 'summary', email: 'no.location@example.com' }],
	])('%s outputs AWeber\'s answer as it came, and reads nothing back', async (_case, parameters: IDataObject) => {
		bed.sandbox.faults.next(1, 'answer', { status: 201, body: { accepted: true }, method: 'POST' });
		const result = await subscriber(parameters);
		expect(result.status).toBe('success');
		expect(result.items).toEqual([{ accepted: true }]);
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['POST']);
	});

	it('Create reads back and outputs the subscriber added under an address given with spaces and capitals', async () => {
		const result = await subscriber({ operation: 'create', email: ' New.Person@Example.com ', simplify: false });
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: expect.stringMatching(/^new\.person@example\.com$/i) })]);
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['POST', 'GET']);
	});

	it('Create refuses a Location on another origin before reading it, naming the header', async () => {
		bed.sandbox.faults.next(1, 'redirect', { status: 201, location: 'http://127.0.0.1:9/1.0/accounts/1/lists/2/subscribers/3', method: 'POST' });
		const result = await subscriber({ operation: 'create', email: 'foreign.location@example.com' });
		expect(result.error?.message).toBe('Refused to send the AWeber credential to http://127.0.0.1:9');
		expect(result.error?.description).toContain("The Location header of AWeber's answer points to");
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['POST']);
	});
});

describe('Output: Request Summary, when an add\'s answer was lost', () => {
	const bed = useTestbed();
	const losing = useAnswerLosingProxy(bed);

	const empty = () => bed.sandbox.seed.lists.empty;
	const subscribersPath = () => `/lists/${empty()}/subscribers`;
	const addFast = async (items: IDataObject[]) =>
		await bed.harness.runNode(
			{
				type: 'aWeberSubscriber',
				credentialId: losing.viaProxy,
				parameters: {
					operation: 'create',
					output: 'summary',
					...newsletterScope(bed, empty()),
					email: '={{ $json.email }}',
					additionalFields: { name: 'Ada' },
				},
			},
			items,
		);

	it('counts the retry\'s "already subscribed" as done and outputs the same summary', async () => {
		losing.proxy.loseAnswers(1, 'POST', subscribersPath(), '500');
		const result = await addFast([{ email: 'lost.fast@example.com' }]);

		expect(result.status).toBe('success');
		// Carried out (answer lost), refused as a duplicate, then found by email: never two subscribers.
		expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 201', 'POST 400', 'GET 200']);
		expect(apiCalls(bed)[2].query).toMatchObject({ 'ws.op': 'find', email: 'lost.fast@example.com' });
		const stored = await storedSubscriber(bed, empty(), 'lost.fast@example.com', losing.proxy.url);
		expect(result.items).toEqual([
			{
				id: stored.id,
				email: 'lost.fast@example.com',
				name: 'Ada',
				list_id: empty(),
				list_link: `${losing.proxy.url}${listPath(bed, empty())}`,
				self_link: stored.self_link,
			},
		]);
	});

	it('in a bulk run, only the items whose answer was lost cost more than their one POST', async () => {
		losing.proxy.loseAnswers(2, 'POST', subscribersPath(), 'reset');
		const items = Array.from({ length: 15 }, (_, index) => ({ email: `lost-bulk-${index}@example.com` }));
		const result = await addFast(items);

		expect(result.status).toBe('success');
		expect(result.items.map((item) => item.email)).toEqual(items.map((item) => item.email));
		for (const item of result.items) expect(item).toMatchObject({ id: expect.any(Number), name: 'Ada', self_link: expect.stringContaining('/subscribers/') });
		expect(new Set(result.items.map((item) => item.id)).size).toBe(15);
		const calls = apiCalls(bed);
		expect(calls.filter((call) => call.method === 'POST' && call.status === 201)).toHaveLength(15);
		expect(calls.filter((call) => call.method === 'POST' && call.status === 400)).toHaveLength(2);
		// The two finds of the recovered adds; no read-back of any subscriber.
		expect(calls.filter((call) => call.method === 'GET').map((call) => call.query['ws.op'])).toEqual(['find', 'find']);
	});
});

describe('Simplify', () => {
	const bed = useTestbed();

	const subscriber = (parameters: IDataObject) => run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters });
	const broadcast = (parameters: IDataObject) => run(bed, 'aWeberBroadcast', { ...newsletterScope(bed), ...parameters });
	const listLink = () => `${bed.sandbox.apiBaseUrl}${listPath(bed)}`;

	describe('subscribers', () => {
		it('Get keeps the fields users map most, and the list derived from the subscriber\'s link', async () => {
			const id = bed.sandbox.seed.subscribers.subscribed;
			const [simplified] = (await subscriber({ operation: 'get', subscriberId: byId(id) })).items;
			const [raw] = (await subscriber({ operation: 'get', subscriberId: byId(id), simplify: false })).items;
			expect(Object.keys(simplified)).toEqual(SIMPLIFIED_SUBSCRIBER_KEYS);
			for (const key of SIMPLIFIED_SUBSCRIBER_KEYS.filter((name) => !name.startsWith('list_'))) expect(simplified[key]).toEqual(raw[key]);
			expect(simplified).toMatchObject({ id, list_id: bed.sandbox.seed.lists.newsletter, list_link: listLink() });
			// Off: AWeber's whole object, as before.
			expect(Object.keys(raw).length).toBeGreaterThan(25);
			expect(raw).toMatchObject({ uuid: expect.any(String), ad_tracking: expect.anything(), http_etag: expect.any(String) });
			expect(raw).not.toHaveProperty('list_id');
		});

		it('Get Many simplifies every page the node reads, not only the first', async () => {
			const smallPages = registerSmallPageVariant(bed, 'aWeberSubscriber', 6);
			const result = await run(bed, smallPages, { ...newsletterScope(bed), operation: 'getAll', returnAll: true });
			expect(result.items).toHaveLength(20);
			for (const item of result.items) expect(Object.keys(item)).toEqual(SIMPLIFIED_SUBSCRIBER_KEYS);
			expect(apiCalls(bed)).toHaveLength(4);
			const raw = await run(bed, smallPages, { ...newsletterScope(bed), operation: 'getAll', returnAll: true, simplify: false });
			expect(raw.items).toHaveLength(20);
			for (const item of raw.items) expect(item).toHaveProperty('uuid');
		});

		it('Find in Account takes the list from the search result\'s list_link and keeps its name', async () => {
			const result = await run(bed, 'aWeberSubscriber', {
				operation: 'findForAccount',
				accountId: byId(bed.sandbox.seed.accountId),
				filters: { email: 'grace.hopper@example.com' },
				returnAll: true,
			});
			expect(result.items).toEqual([
				expect.objectContaining({
					email: 'grace.hopper@example.com',
					list_id: bed.sandbox.seed.lists.newsletter,
					list_name: 'Newsletter',
					list_link: listLink(),
				}),
			]);
			// Search results also name the list.
			expect(Object.keys(result.items[0])).toEqual([...SIMPLIFIED_SUBSCRIBER_KEYS.slice(0, 9), 'list_name', 'list_link', 'self_link']);
		});

		it('Update outputs the updated subscriber simplified, or whole with Simplify off', async () => {
			const id = bed.sandbox.seed.subscribers.subscribed;
			const update = { operation: 'update', subscriberId: byId(id), updateFields: { name: 'Renamed' } };
			const [simplified] = (await subscriber(update)).items;
			expect(simplified).toMatchObject({ id, name: 'Renamed' });
			expect(Object.keys(simplified)).toEqual(SIMPLIFIED_SUBSCRIBER_KEYS);
			const [raw] = (await subscriber({ ...update, simplify: false })).items;
			expect(raw).toMatchObject({ id, name: 'Renamed', uuid: expect.any(String) });
		});
	});

	describe('broadcasts', () => {
		it('Get of a sent broadcast keeps subject, status, times, stats and the link to its statistics', async () => {
			const id = bed.sandbox.seed.broadcasts.sent;
			const [simplified] = (await broadcast({ operation: 'get', broadcastId: byId(id) })).items;
			const [raw] = (await broadcast({ operation: 'get', broadcastId: byId(id), simplify: false })).items;
			expect(simplified).toEqual({
				broadcast_id: id,
				subject: raw.subject,
				status: 'sent',
				created_at: raw.created_at,
				scheduled_for: raw.scheduled_for,
				sent_at: raw.sent_at,
				stats: raw.stats,
				stats_link: `${listLink()}/campaigns/b${id}/stats`,
				self_link: `${listLink()}/broadcasts/${id}`,
			});
			expect(raw).toMatchObject({ body_html: expect.any(String), uuid: expect.any(String), segment_name: expect.any(String) });
			// The stats link is the one Get Statistics reads.
			const token = bed.sandbox.issueToken();
			const stats = await request(simplified.stats_link as string, { headers: { authorization: `Bearer ${token.access_token}` } });
			expect(stats.statusCode).toBe(200);
			await stats.body.dump();
		});

		it('Get of a broadcast being sent links its statistics too', async () => {
			const id = bed.sandbox.seed.broadcasts.sent;
			const [raw] = (await broadcast({ operation: 'get', broadcastId: byId(id), simplify: false })).items;
			bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: `${listPath(bed)}/broadcasts/${id}`, body: { ...raw, status: 'sending' } });
			const [simplified] = (await broadcast({ operation: 'get', broadcastId: byId(id) })).items;
			expect(simplified).toMatchObject({ status: 'sending', stats_link: `${listLink()}/campaigns/b${id}/stats` });
		});

		it.each([
			['is no text', (link: string) => [link]],
			['goes on after the broadcast ID', (link: string) => `${link}/messages`],
		])('Get of a sent broadcast whose self_link %s gives no statistics link', async (_what, selfLink) => {
			const id = bed.sandbox.seed.broadcasts.sent;
			const [raw] = (await broadcast({ operation: 'get', broadcastId: byId(id), simplify: false })).items;
			const body = { ...raw, self_link: selfLink(raw.self_link as string) };
			bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: `${listPath(bed)}/broadcasts/${id}`, body });
			const result = await broadcast({ operation: 'get', broadcastId: byId(id) });
			expect(result.items).toEqual([expect.objectContaining({ status: 'sent', stats_link: null, self_link: body.self_link })]);
		});

		it.each([
			['an HTML page', '<html>maintenance</html>', 'an HTML page (<html>maintenance</html>)'],
			['text', 'Service temporarily unavailable', 'text (Service temporarily unavailable)'],
			['empty', '', 'an empty answer'],
			['a JSON number', 42, 'a JSON number (42)'],
			['a JSON array of text', ['a', 'b'], 'a JSON array (["a","b"])'],
		])('Get refuses an answer that is %s as unexpected, Simplify on or off: no successful item', async (_what, body, described) => {
			const id = bed.sandbox.seed.broadcasts.sent;
			for (const simplify of [true, false]) {
				bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: `${listPath(bed)}/broadcasts/${id}`, body });
				const result = await broadcast({ operation: 'get', broadcastId: byId(id), simplify });
				expect(result.status).toBe('error');
				expect(result.items).toEqual([]);
				expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a JSON object");
				// Which request it answered, and that nothing was done: a read changes nothing in AWeber.
				expect(result.error?.description).toContain(
					`While reading AWeber's answer to GET ${bed.sandbox.apiBaseUrl}${listPath(bed)}/broadcasts/${id}, AWeber answered ${described} instead of a JSON object. ` +
						'The node did not act on that answer and changed nothing in AWeber.',
				);
			}
		});

		it('Get refuses an answer that is JSON null as unexpected, Simplify on or off', async () => {
			const id = bed.sandbox.seed.broadcasts.sent;
			for (const simplify of [true, false]) {
				bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: `${listPath(bed)}/broadcasts/${id}`, body: null });
				const result = await broadcast({ operation: 'get', broadcastId: byId(id), simplify });
				expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a JSON object");
				expect(result.error?.description).toMatch(/^While reading AWeber's answer to GET .*, AWeber answered an empty answer instead of a JSON object\./);
			}
		});

		it('Create outputs the new draft simplified, with no statistics link until it is sent', async () => {
			const result = await broadcast({ operation: 'create', subject: 'Spring sale', bodyHtml: '<p>Hello</p>' });
			expect(result.items).toEqual([
				{
					broadcast_id: expect.any(Number),
					subject: 'Spring sale',
					status: 'draft',
					created_at: expect.any(String),
					scheduled_for: null,
					sent_at: null,
					stats: null,
					stats_link: null,
					self_link: expect.stringMatching(/\/broadcasts\/\d+$/),
				},
			]);
		});

		it('Get Many simplifies each entry (AWeber lists abbreviated broadcasts: only the fields they have)', async () => {
			const result = await broadcast({ operation: 'getAll', status: 'scheduled', returnAll: true });
			expect(result.items.length).toBeGreaterThan(0);
			for (const item of result.items) {
				expect(Object.keys(item)).toEqual(['broadcast_id', 'subject', 'status', 'scheduled_for', 'sent_at', 'stats_link', 'self_link']);
				expect(item).toMatchObject({ status: 'scheduled', stats_link: null });
			}
			const raw = await broadcast({ operation: 'getAll', status: 'scheduled', returnAll: true, simplify: false });
			expect(raw.items[0]).toHaveProperty('uuid');
			expect(raw.items[0]).not.toHaveProperty('stats_link');
		});
	});
});
