// How the sandbox answers requests the way AWeber's own client code sends them: a pre-encoded form without a
// Content-Type (AWeber's Python examples), add subscriber without a Content-Type, and a purchase (202 Accepted).
import { call, listPath, useSandbox } from './api-test-client';
import type { Sandbox } from './types';

let sandbox: Sandbox;
let token: string;

useSandbox((started, fresh) => {
	sandbox = started;
	token = fresh;
});

const newsletter = () => listPath(sandbox, sandbox.seed.lists.newsletter);

describe('a body without a Content-Type header', () => {
	it('is read as a form: creating a custom field with a pre-encoded ws.op=create string works', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/custom_fields`, {
			token,
			raw: { body: 'ws.op=create&name=Shoe+Size' },
		});
		expect(response.status).toBe(201);
		expect(response.text).toBe('');
		const field = await call(sandbox, 'GET', String(response.headers.location), { token });
		expect(field.json()).toMatchObject({ name: 'Shoe Size' });
		expect(sandbox.requests().at(-2)).toMatchObject({ method: 'POST', contentType: null, status: 201 });
	});

	it('carries a form access token like a typed form does', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/custom_fields`, {
			raw: { body: `ws.op=create&name=Referrer&access_token=${encodeURIComponent(token)}` },
		});
		expect(response.status).toBe(201);
	});

	it('is refused by add subscriber with 400 BadRequestError (not 415), as AWeber\'s specification says', async () => {
		for (const body of ['email=untyped%40example.com', '{"email": "untyped@example.com"}', '']) {
			const response = await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, raw: { body } });
			expect(response.status).toBe(400);
			expect(response.json().error).toMatchObject({ status: 400, type: 'BadRequestError', message: expect.stringMatching(/Content-Type header is missing/) });
		}
		const found = await call(sandbox, 'GET', `${newsletter()}/subscribers`, { token, query: { 'ws.op': 'find', email: 'untyped@example.com' } });
		expect(found.json().entries).toEqual([]);
	});

	it('still makes a Content-Type the sandbox cannot take a 415', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, raw: { contentType: 'text/plain', body: 'email=x@example.com' } });
		expect(response.status).toBe(415);
		expect(response.json().error.type).toBe('InvalidContentType');
	});
});

describe('a purchase', () => {
	it('is answered 202 Accepted with an empty body and the subscriber\'s activity as Location', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/purchases`, {
			token,
			json: {
				email: 'accepted@example.com',
				ip_address: '203.0.113.9',
				vendor: 'Shop',
				product_name: 'Stove',
				event_note: 'order 7',
				currency: 'EUR',
				value: 80,
				event_time: '2026-02-01T09:00:00Z',
				url: 'https://shop.example/thanks',
			},
		});
		expect(response.status).toBe(202);
		expect(response.text).toBe('');
		const location = String(response.headers.location);
		expect(location).toMatch(new RegExp(`/lists/${sandbox.seed.lists.newsletter}/subscribers/\\d+\\?ws\\.op=getActivity$`));
		const activity = (await call(sandbox, 'GET', location, { token })).json();
		expect(activity.entries).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'tracked_event', product_name: 'Stove' })]));
	});
});
