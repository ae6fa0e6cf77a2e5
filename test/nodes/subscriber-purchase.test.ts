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
		['value', 'forty', 'The "Value" field must be a number'],
	])('refuses a bad %s before any request', async (field, value, message) => {
		const result = await subscriber({ ...purchase, [field]: '={{ $json.value }}' }, { items: [{ value }] });
		expect(result.error?.message).toBe(message);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('refuses an event time that is no date before any request', async () => {
		const result = await subscriber({ ...purchase, additionalFields: { eventTime: '={{ $json.when }}' } }, { items: [{ when: 'next Tuesday' }] });
		expect(result.error?.message).toBe('The "Event Time" field must be a date and time, not "next Tuesday"');
		expect(apiCalls(bed)).toEqual([]);
	});
});
