// The rows of Custom Fields as a user fills them: a field named twice (in any case) or a row without a name is refused
// before anything is written, a value's surrounding spaces are not sent to AWeber, and a value from an expression is
// text: a number or a boolean as its text, nothing (null, undefined) as no value, an object or a list refused naming
// the field.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, newsletterScope, run } from './email-nodes.helpers';

describe('AWeber Subscriber node: the rows of Custom Fields', () => {
	const bed = useTestbed();
	const subscriber = (parameters: IDataObject, options: { items?: IDataObject[] } = {}) =>
		run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters }, options);
	const writes = () => apiCalls(bed).filter((call) => call.method !== 'GET');

	it('refuses a field named twice, whatever its case, naming it, and adds no one', async () => {
		const result = await subscriber({
			operation: 'create',
			email: 'twice@example.com',
			additionalFields: { customFields: { field: [{ name: 'Company', value: 'Acme' }, { name: 'company', value: 'Other' }] } },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('Custom Fields');
		expect(result.error?.message).toContain('sets "company" twice');
		expect(writes()).toEqual([]);
	});

	it('refuses a row without a field name, naming its row, and adds no one', async () => {
		const result = await subscriber({
			operation: 'create',
			email: 'nameless@example.com',
			additionalFields: { customFields: { field: [{ name: 'Company', value: 'Acme' }, { name: '  ', value: 'pro' }] } },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The "Custom Fields" field has a row without a field name (row 2)');
		expect(apiCalls(bed)).toEqual([]);
	});

	it('refuses a field name from an expression that gives nothing as a row without a name', async () => {
		const result = await subscriber(
			{ operation: 'create', email: 'nameless@example.com', additionalFields: { customFields: { field: [{ name: '={{ $json.field }}', value: 'Acme' }] } } },
			{ items: [{ field: null }] },
		);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The "Custom Fields" field has a row without a field name (row 1)');
		expect(apiCalls(bed)).toEqual([]);
	});

	it.each([
		['null', { company: null }],
		['undefined', {}],
	])('sends no value for a field whose value from an expression is %s', async (_what, item) => {
		const result = await subscriber(
			{
				operation: 'create',
				email: 'nothing@example.com',
				additionalFields: { customFields: { field: [{ name: 'Company', value: '={{ $json.company }}' }, { name: 'Plan', value: 'pro' }] } },
			},
			{ items: [item] },
		);
		expect(result.status).toBe('success');
		const add = writes().find((call) => call.method === 'POST');
		expect((add?.body as IDataObject | undefined)?.custom_fields).toEqual({ Plan: 'pro' });
	});

	it('sends a value without its surrounding spaces', async () => {
		const result = await subscriber({
			operation: 'create',
			email: 'spaces@example.com',
			additionalFields: { customFields: { field: [{ name: 'Company', value: '  Acme Corp  ' }] } },
		});
		expect(result.status).toBe('success');
		expect(result.items[0].custom_fields).toMatchObject({ Company: 'Acme Corp' });
		const add = writes().find((call) => call.method === 'POST');
		expect((add?.body as IDataObject | undefined)?.custom_fields).toEqual({ Company: 'Acme Corp' });
	});

	it('sends a number or a boolean from an expression as its text', async () => {
		const result = await subscriber(
			{
				operation: 'create',
				email: 'typed@example.com',
				additionalFields: { customFields: { field: [{ name: 'Company', value: '={{ $json.company }}' }, { name: 'Plan', value: '={{ $json.plan }}' }] } },
			},
			{ items: [{ company: 42, plan: true }] },
		);
		expect(result.status).toBe('success');
		const add = writes().find((call) => call.method === 'POST');
		expect((add?.body as IDataObject | undefined)?.custom_fields).toEqual({ Company: '42', Plan: 'true' });
	});

	it.each([
		['an object', { name: 'Acme' }],
		['a list', ['Acme']],
	])('refuses %s from an expression before anything is written, naming the field', async (what, company) => {
		const result = await subscriber(
			{ operation: 'create', email: 'typed@example.com', additionalFields: { customFields: { field: [{ name: 'Company', value: '={{ $json.company }}' }] } } },
			{ items: [{ company }] },
		);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`The "Custom Field "Company"" field must be text, not ${what}`);
		expect(writes()).toEqual([]);
	});
});
