// Track Purchase: a sale recorded as JSON with every field AWeber requires, each checked before any request and
// named in the error as the user sees it.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, listPath, newsletterScope, PURCHASE_FIELDS, run } from './email-nodes.helpers';

describe('AWeber Subscriber node: Track Purchase', () => {
	const bed = useTestbed();

	const subscribersPath = () => `${listPath(bed)}/subscribers`;
	const subscriber = (parameters: IDataObject, options: { items?: IDataObject[] } = {}) =>
		run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters }, options);

	const purchase = { ...PURCHASE_FIELDS, email: 'buyer@example.com' };

	it('records a sale as JSON, adding the buyer, and outputs the subscriber', async () => {
		const result = await subscriber({
			...purchase,
			additionalFields: { eventTime: '2025-03-01T10:00:00Z', tags: ['buyer'], name: 'Bea Buyer' },
		});
		expect(result.status).toBe('success');
		expect(result.items).toEqual([
			expect.objectContaining({
				email: 'buyer@example.com',
				name: 'Bea Buyer',
				tags: ['buyer'],
				purchase_activity_link: expect.stringContaining('ws.op=getActivity'),
			}),
		]);
		const [post, read] = apiCalls(bed);
		expect(post).toMatchObject({
			method: 'POST',
			path: `${listPath(bed)}/purchases`,
			contentType: expect.stringMatching(/^application\/json/),
			body: {
				email: 'buyer@example.com',
				ip_address: '204.194.222.28',
				product_name: 'Trail Jacket',
				value: 49.5,
				currency: 'USD',
				vendor: 'Sandbox Store',
				url: 'https://sandbox-outfitters.example/checkout',
				event_note: 'Order 1001',
				event_time: '2025-03-01T10:00:00Z',
				tags: ['buyer'],
				name: 'Bea Buyer',
			},
		});
		expect(read).toMatchObject({ method: 'GET', path: `${subscribersPath()}/${result.items[0].id}` });
		const activity = await subscriber({ operation: 'getActivity', subscriberId: byId(result.items[0].id as number), returnAll: true });
		expect(activity.items).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'tracked_event', product_name: 'Trail Jacket' })]));
	});

	it('defaults the event time to now', async () => {
		await subscriber(purchase);
		expect(apiCalls(bed)[0].body).toMatchObject({ event_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) });
	});

	it.each([
		['currency', 'dollars', 'The "Currency" field must be a three-letter ISO currency code such as USD, not "DOLLARS"'],
		['url', 'checkout page', 'The "URL" field must be a web address (http or https), not "checkout page"'],
		['url', 'see https://shop.example', 'The "URL" field must be a web address (http or https), not "see https://shop.example"'],
		['url', 'https://shop.example and more', 'The "URL" field must be a web address (http or https), not "https://shop.example and more"'],
		['url', ' ', 'The "URL" field is empty'],
		['currency', '', 'The "Currency" field is empty'],
		['eventNote', ' ', 'The "Event Note" field is empty'],
		['vendor', { name: 'Sandbox Store' }, 'The "Vendor" field must be text, not an object'],
		['productName', '', 'The "Product Name" field is empty'],
		['value', 'forty', 'The "Value" field must be a number, not "forty"'],
		['value', '', 'The "Value" field must be a number, not ""'],
		['value', null, 'The "Value" field must be a number, not null'],
		['value', true, 'The "Value" field must be a number, not a boolean'],
		['value', Number.POSITIVE_INFINITY, 'The "Value" field must be a number, not Infinity'],
	])('refuses a bad %s before any request', async (field, value, message) => {
		const result = await subscriber({ ...purchase, [field]: '={{ $json.value }}' }, { items: [{ value }] });
		expect(result.error?.message).toBe(message);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('takes a plain http address as URL', async () => {
		const result = await subscriber({ ...purchase, url: 'http://sandbox-outfitters.example/checkout' });
		expect(result.status).toBe('success');
		expect(apiCalls(bed)[0].body).toMatchObject({ url: 'http://sandbox-outfitters.example/checkout' });
	});

	it('takes a Value written as text from an expression, as a number', async () => {
		const result = await subscriber({ ...purchase, value: '={{ $json.value }}' }, { items: [{ value: ' 49.50 ' }] });
		expect(result.status).toBe('success');
		expect(apiCalls(bed)[0].body).toMatchObject({ value: 49.5 });
	});

	it('refuses an event time that is no date before any request', async () => {
		const result = await subscriber({ ...purchase, additionalFields: { eventTime: '={{ $json.when }}' } }, { items: [{ when: 'next Tuesday' }] });
		expect(result.error?.message).toBe('The "Event Time" field must be a date and time, not "next Tuesday"');
		expect(apiCalls(bed)).toEqual([]);
	});

	it.each([
		['null', { when: null }],
		['missing', {}],
	])('takes an event time that is %s from an expression as now, and sends no tags or custom fields not given', async (_case, item) => {
		const result = await subscriber({ ...purchase, additionalFields: { eventTime: '={{ $json.when }}' } }, { items: [item] });
		expect(result.status).toBe('success');
		const [post] = apiCalls(bed);
		expect(post.body).toMatchObject({ event_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) });
		expect(post.body).not.toHaveProperty('tags');
		expect(post.body).not.toHaveProperty('custom_fields');
	});

	it('refuses Tags that are no list, naming the field, and takes custom field names in any case, as AWeber does', async () => {
		const tags = await subscriber({ ...purchase, additionalFields: { tags: '={{ $json.tags }}' } }, { items: [{ tags: 5 }] });
		expect(tags.error?.message).toBe('The "Tags" field must be a list of tags or a comma-separated text, not a number');
		expect(apiCalls(bed)).toEqual([]);
		const fields = await subscriber({ ...purchase, additionalFields: { customFields: { field: [{ name: 'company', value: 'Outfitters' }] } } });
		expect(fields.status).toBe('success');
		expect(apiCalls(bed).find((call) => call.method === 'POST')?.body).toMatchObject({ custom_fields: { company: 'Outfitters' } });
	});

	it('outputs AWeber\'s answer when it names no Location, and refuses a Location on another origin, naming the header', async () => {
		bed.sandbox.faults.next(1, 'answer', { status: 201, body: { accepted: true }, method: 'POST' });
		const unnamed = await subscriber(purchase);
		expect(unnamed.items).toEqual([{ accepted: true }]);
		bed.sandbox.faults.next(1, 'redirect', { status: 201, location: 'http://127.0.0.1:9/1.0/accounts/1/lists/2/subscribers/3?ws.op=getActivity', method: 'POST' });
		const foreign = await subscriber(purchase);
		expect(foreign.error?.message).toBe('Refused to send the AWeber credential to http://127.0.0.1:9');
		expect(foreign.error?.description).toContain("The Location header of AWeber's answer points to");
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['POST', 'POST']);
	});
});
