import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, listPath, newsletterScope, run } from './email-nodes.helpers';

describe('AWeber Custom Field node', () => {
	const bed = useTestbed();

	const fieldsPath = () => `${listPath(bed)}/custom_fields`;
	const companyField = () => byId(bed.sandbox.seed.customFields.company);

	it('gets the custom fields of a list, sorted by ID', async () => {
		const result = await run(bed, 'aWeberCustomField', { operation: 'getAll', ...newsletterScope(bed), returnAll: true });
		expect(result.status).toBe('success');
		expect(result.items.map((field) => field.name)).toEqual(['Company', 'Plan', 'Birthday']);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ method: 'GET', path: fieldsPath(), query: { 'ws.size': '100' } })]);
	});

	it('gets custom fields up to the limit', async () => {
		const result = await run(bed, 'aWeberCustomField', { operation: 'getAll', ...newsletterScope(bed), returnAll: false, limit: 1 });
		expect(result.items.map((field) => field.name)).toEqual(['Company']);
	});

	it('gets one custom field', async () => {
		const result = await run(bed, 'aWeberCustomField', { operation: 'get', ...newsletterScope(bed), customFieldId: companyField() });
		expect(result.items).toEqual([
			expect.objectContaining({ id: bed.sandbox.seed.customFields.company, name: 'Company', is_subscriber_updateable: false }),
		]);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${fieldsPath()}/${bed.sandbox.seed.customFields.company}` }),
		]);
	});

	it('adds a custom field with a form body carrying ws.op=create, then outputs the new field', async () => {
		const result = await run(bed, 'aWeberCustomField', { operation: 'create', ...newsletterScope(bed), name: ' Favourite Color ' });
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ name: 'Favourite Color', id: expect.any(Number) })]);
		const [create, read] = apiCalls(bed);
		expect(create).toMatchObject({ method: 'POST', path: fieldsPath(), status: 201, body: { 'ws.op': 'create', name: 'Favourite Color' } });
		expect(create.contentType).toMatch(/^application\/x-www-form-urlencoded/);
		expect(read).toMatchObject({ method: 'GET', path: `${fieldsPath()}/${result.items[0].id}` });
		expect(apiCalls(bed)).toHaveLength(2);
	});

	it('reports AWeber refusing a second field of the same name', async () => {
		const result = await run(bed, 'aWeberCustomField', { operation: 'create', ...newsletterScope(bed), name: 'company' });
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/already exists/);
		expect(result.error?.description).toMatch(/HTTP status: 400/);
	});

	it('refuses an empty name coming from the input before any request', async () => {
		const result = await run(
			bed,
			'aWeberCustomField',
			{ operation: 'create', ...newsletterScope(bed), name: '={{ $json.field }}' },
			{ items: [{ field: ' ' }] },
		);
		expect(result.error?.message).toBe('The "Name" field is empty');
		expect(apiCalls(bed)).toEqual([]);
	});

	it('renames a custom field and lets subscribers update it, with a JSON PATCH', async () => {
		const result = await run(bed, 'aWeberCustomField', {
			operation: 'update',
			...newsletterScope(bed),
			customFieldId: companyField(),
			updateFields: { name: 'Employer', isSubscriberUpdateable: true },
		});
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ name: 'Employer', is_subscriber_updateable: true })]);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({
				method: 'PATCH',
				path: `${fieldsPath()}/${bed.sandbox.seed.customFields.company}`,
				status: 209,
				contentType: expect.stringMatching(/^application\/json/),
				body: { name: 'Employer', is_subscriber_updateable: true },
			}),
		]);
	});

	it('refuses an update without any change before any request', async () => {
		const result = await run(bed, 'aWeberCustomField', {
			operation: 'update',
			...newsletterScope(bed),
			customFieldId: companyField(),
			updateFields: {},
		});
		expect(result.error?.message).toBe('No change given');
		expect(result.error?.description).toBe('Add "Name" or "Subscriber Can Update" under "Update Fields".');
		expect(apiCalls(bed)).toEqual([]);
	});

	it('sends only "Subscriber Can Update" when it is the one change given, the name left as it is', async () => {
		const result = await run(bed, 'aWeberCustomField', {
			operation: 'update',
			...newsletterScope(bed),
			customFieldId: companyField(),
			updateFields: { isSubscriberUpdateable: true },
		});
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ name: 'Company', is_subscriber_updateable: true })]);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ method: 'PATCH', body: { is_subscriber_updateable: true } })]);
	});

	it('refuses a rename to an empty name coming from the input before any request', async () => {
		const result = await run(
			bed,
			'aWeberCustomField',
			{ operation: 'update', ...newsletterScope(bed), customFieldId: companyField(), updateFields: { name: '={{ $json.field }}' } },
			{ items: [{ field: ' ' }] },
		);
		expect(result.error?.message).toBe('The "Name" field is empty');
		expect(apiCalls(bed)).toEqual([]);
	});

	it('deletes a custom field and says so', async () => {
		const result = await run(bed, 'aWeberCustomField', { operation: 'delete', ...newsletterScope(bed), customFieldId: companyField() });
		expect(result.items).toEqual([{ deleted: true }]);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'DELETE', path: `${fieldsPath()}/${bed.sandbox.seed.customFields.company}`, status: 200 }),
		]);
		const after = await run(bed, 'aWeberCustomField', { operation: 'get', ...newsletterScope(bed), customFieldId: companyField() });
		expect(after.status).toBe('error');
		expect(after.error?.description).toMatch(/HTTP status: 404/);
	});

	it('refuses a custom field ID from the input that is not a number, naming the field', async () => {
		const result = await run(
			bed,
			'aWeberCustomField',
			{ operation: 'get', ...newsletterScope(bed), customFieldId: byId('={{ $json.field }}') },
			{ items: [{ field: 'Company' }] },
		);
		expect(result.error?.message).toBe('The "Custom Field" field must be a numeric AWeber ID, not "Company"');
		expect(apiCalls(bed)).toEqual([]);
	});
});
