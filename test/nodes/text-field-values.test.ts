// What a text field accepts from an expression (nodes/shared/fieldValidation.ts): numbers and booleans as their text,
// nothing (null, undefined) as empty, anything else refused naming the field; and the advice a refusal carries.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, listPath, newsletterScope, PURCHASE_FIELDS, run } from './email-nodes.helpers';

const bed = useTestbed();

/** A Track Purchase whose `field` is read from the item's `value` by an expression. */
const purchaseWith = async (field: string, item: IDataObject) =>
	await run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...PURCHASE_FIELDS, email: 'buyer@example.com', [field]: '={{ $json.value }}' }, { items: [item] });

describe('A required text field given nothing by its expression is empty', () => {
	it.each([
		['null', { value: null }],
		['undefined (the item has no such key)', {}],
	])('Product Name %s: refused as empty, before any request', async (_case, item) => {
		const result = await purchaseWith('productName', item);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The "Product Name" field is empty');
		expect(apiCalls(bed)).toEqual([]);
	});

	it.each([
		['null', { value: null }],
		['undefined', {}],
	])('Email %s: refused as empty, not as a malformed address', async (_case, item) => {
		const result = await purchaseWith('email', item);
		expect(result.error?.message).toBe('The "Email" field is empty: no email address given');
		expect(apiCalls(bed)).toEqual([]);
	});
});

describe('A text field from an expression is sent as text: a number or a yes/no as its text, spaces around cut', () => {
	it.each([
		['a number', 1001, '1001'],
		['a boolean', true, 'true'],
		['text with spaces around', '  Order 1001\n', 'Order 1001'],
	])('Event Note as %s', async (_case, value, sent) => {
		const result = await purchaseWith('eventNote', { value });
		expect(result.status).toBe('success');
		expect(apiCalls(bed)[0]).toMatchObject({ method: 'POST', path: `${listPath(bed)}/purchases`, body: { event_note: sent, product_name: 'Trail Jacket' } });
	});

	it('Product Name as a list is refused, naming the field and what it got', async () => {
		const result = await purchaseWith('productName', { value: ['Trail Jacket'] });
		expect(result.error?.message).toBe('The "Product Name" field must be text, not a list');
		expect(apiCalls(bed)).toEqual([]);
	});
});

describe('IP Address: the form of an IPv4 or IPv6 address (AWeber itself refuses private and reserved ones)', () => {
	// Every alternative of an IPv4 part (250-255, 200-249, 100-199, 10-99, 0-9), first and further on.
	it.each([['255.249.199.9'], ['199.22.255.204'], ['9.0.100.22'], ['22.194.204.255'], ['2001:db8:85a3::8a2e:370:7334'], ['::ffff:204.194.222.28']])(
		'%s is sent to AWeber, which judges the reserved blocks',
		async (address) => {
			await purchaseWith('ipAddress', { value: address });
			expect(apiCalls(bed)[0]).toMatchObject({ method: 'POST', body: { ip_address: address } });
		},
	);

	it.each([['204.194.222.256'], ['204.194.222'], ['204.194.222.28.1'], ['204.194.222.028'], ['12345'], ['2001:db8::g1'], ['zz::1'], ['x204.194.222.28']])(
		'%s is refused before any request',
		async (address) => {
			const result = await purchaseWith('ipAddress', { value: address });
			expect(result.error?.message).toBe(`The "IP Address" field must be an IPv4 or IPv6 address, not "${address}"`);
			expect(apiCalls(bed)).toEqual([]);
		},
	);
});

describe('Email: one address, nothing before or after it', () => {
	it.each([['grace hopper@example.com'], ['grace@example.com hopper'], ['grace@example.com@navy']])('%s is refused before any request', async (address) => {
		const result = await purchaseWith('email', { value: address });
		expect(result.error?.message).toBe(`The "Email" field must be an email address, not "${address}"`);
		expect(apiCalls(bed)).toEqual([]);
	});
});

describe('A refusal carries its advice', () => {
	it('Move to the list the subscriber is on: what to do instead', async () => {
		const result = await run(bed, 'aWeberSubscriber', {
			...newsletterScope(bed),
			operation: 'move',
			subscriberId: byId(bed.sandbox.seed.subscribers.subscribed),
			destinationListId: byId(bed.sandbox.seed.lists.newsletter),
		});
		expect(result.error?.message).toBe('The "Destination List" field is the list the subscriber is on');
		expect(result.error?.description).toBe('Choose another list to move the subscriber to.');
		expect(apiCalls(bed)).toEqual([]);
	});
});
