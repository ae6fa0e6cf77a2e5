// The sync's normal form (nodes/shared/normalForm.ts), rule by rule: what both sides of the comparison and the writes
// make of a value. The example's runs on messy sources are in list-sync-messy.test.ts.
import type { INode } from 'n8n-workflow';

import { comparableSubscriber, normalCustomFieldValue, normalEmail, normalName, normalTags } from '../../nodes/shared/normalForm';

const context = { getNode: () => ({ name: 'Shape' }) as INode, getItemIndex: () => 0 };

describe('The normal form of a synced subscriber', () => {
	it.each([
		['Ada.Lovelace@Example.com ', 'ada.lovelace@example.com'],
		['  x@y.io', 'x@y.io'],
		[undefined, ''],
		[7, ''],
	])('email %j is %j', (value, expected) => expect(normalEmail(value)).toBe(expected));

	it.each([
		[' Sophie Wilson ', 'Sophie Wilson'],
		[null, ''],
		[undefined, ''],
		[42, '42'],
		[true, 'true'],
		[false, 'false'],
		[{ first: 'Ada' }, ''],
	])('name %j is %j', (value, expected) => expect(normalName(value)).toBe(expected));

	it.each([
		['vip, customer', ['customer', 'vip']],
		[' vip ,, vip,customer ', ['customer', 'vip']],
		[[' vip ', 'customer ', 'vip', ''], ['customer', 'vip']],
		[['VIP', 'vip'], ['VIP', 'vip']],
		['', []],
		[null, []],
	])('tags %j are %j', (value, expected) => expect(normalTags(context, value, 'Tags')).toEqual(expected));

	it('a tag that is an object fails, naming the field', () => {
		expect(() => normalTags(context, [{ name: 'vip' }], 'Tags')).toThrow('The "Tags" field must contain only text, but entry 1 is an object');
	});

	it.each([
		[3, '3'],
		[true, 'true'],
		[false, 'false'],
		[0, '0'],
		['  pro ', 'pro'],
		[['pro'], ''],
		[null, ''],
		[undefined, ''],
	])('custom field value %j is %j', (value, expected) => expect(normalCustomFieldValue(value)).toBe(expected));

	it('a stored subscriber keeps only its text tags, trimmed, each once and sorted; no custom fields or status read as none', () => {
		const stored = { email: ' Grace@Navy.example', name: 'Grace Hopper', tags: ['vip ', 3, 'customer', ' vip', '  ', null], custom_fields: null, id: 2 };
		expect(comparableSubscriber(stored)).toEqual({ email: 'grace@navy.example', name: 'Grace Hopper', tags: ['customer', 'vip'], custom_fields: {}, status: '' });
		expect(comparableSubscriber({ email: 'a@b.io', tags: 'vip', custom_fields: 'Plan=pro', status: 3 })).toEqual({ email: 'a@b.io', name: '', tags: [], custom_fields: {}, status: '' });
		// The same data in any order compares equal: a second run writes nothing for it.
		expect(comparableSubscriber({ email: 'a@b.io', tags: ['b', 'a'], custom_fields: { Plan: 3 } })).toEqual(comparableSubscriber({ email: 'A@b.io', tags: ['a', 'b', 'a'], custom_fields: { Plan: '3 ' } }));
	});

	it("a subscriber as AWeber sends it is the same as the source's contact with the same data", () => {
		const stored = { email: 'Ada.Lovelace@example.com', name: 'Ada Lovelace ', tags: ['vip', 'customer'], custom_fields: { Plan: '3', Company: null }, status: 'subscribed', id: 1 };
		expect(comparableSubscriber(stored)).toEqual({
			email: 'ada.lovelace@example.com',
			name: 'Ada Lovelace',
			tags: normalTags(context, 'customer,vip', 'Tags'),
			custom_fields: { Plan: normalCustomFieldValue(3), Company: normalCustomFieldValue(null) },
			status: 'subscribed',
		});
	});
});
