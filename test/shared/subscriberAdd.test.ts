import { subscriberAddOf } from '../../nodes/shared/transport';

const list = 'https://api.aweber.com/1.0/accounts/123/lists/456/subscribers';

describe('subscriberAddOf (which requests are an add subscriber that may be repeated)', () => {
	it('recognises an add with a JSON body, a form body or a parameters object', () => {
		expect(subscriberAddOf('POST', list, { email: 'a@example.com', name: 'A' })).toEqual({ collectionUrl: list, email: 'a@example.com' });
		expect(subscriberAddOf('post', `${list}?ws.op=create`, 'email=b%40example.com&name=B')).toEqual({ collectionUrl: list, email: 'b@example.com' });
		expect(subscriberAddOf('POST', `${list}/`, new URLSearchParams({ email: 'c@example.com' }))?.email).toBe('c@example.com');
	});

	it('leaves every other request alone', () => {
		expect(subscriberAddOf('GET', list, undefined)).toBeUndefined();
		expect(subscriberAddOf('PATCH', list, { email: 'a@example.com' })).toBeUndefined();
		// Move subscriber posts to the subscriber entry, not the collection.
		expect(subscriberAddOf('POST', `${list}/789`, { 'ws.op': 'move', email: 'a@example.com' })).toBeUndefined();
		expect(subscriberAddOf('POST', 'https://api.aweber.com/1.0/accounts/123/lists/456/broadcasts', { email: 'a@example.com' })).toBeUndefined();
		expect(subscriberAddOf('POST', list, {})).toBeUndefined();
		expect(subscriberAddOf('POST', list, { email: '  ' })).toBeUndefined();
	});
});
