// A custom field name the list does not have is never dropped silently: the node refuses it before writing,
// naming it and listing the list's fields. AWeber's permissive mode stays reachable ("Ignore Unknown Custom
// Fields"), and "Strict Custom Fields" still asks for exact names.
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { AWeberSubscriber } from '../../nodes/AWeberSubscriber/AWeberSubscriber.node';
import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, callLines, listPath, newsletterScope, run } from './email-nodes.helpers';

const typo = { field: [{ name: 'Compnay', value: 'Acme' }] };
const knownFields = 'Company, Plan, Birthday';

describe('AWeber Subscriber node: custom field names the list does not have', () => {
	const bed = useTestbed();

	const subscriber = (parameters: IDataObject, options: { items?: IDataObject[]; continueOnFail?: boolean } = {}) =>
		run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters }, options);
	const grace = () => bed.sandbox.seed.subscribers.subscribed + 1;
	const fieldsRead = () => `GET ${listPath(bed)}/custom_fields`;
	const writes = () => apiCalls(bed).filter((call) => call.method !== 'GET');

	function expectRefusedTypo(result: Awaited<ReturnType<typeof subscriber>>) {
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The custom field "Compnay" does not exist on this list');
		expect(result.error?.description).toContain(`The list's custom fields are: ${knownFields}.`);
		expect(result.error?.description).toContain('"Ignore Unknown Custom Fields" under Options');
	}

	describe('by default', () => {
		it('Create refuses a mistyped name before adding anyone, listing the list\'s fields', async () => {
			const result = await subscriber({ operation: 'create', email: 'typo@example.com', additionalFields: { customFields: typo } });
			expectRefusedTypo(result);
			expect(callLines(bed)).toEqual([fieldsRead()]);
		});

		it('Create on a list without custom fields says the list has none', async () => {
			const result = await subscriber({
				...newsletterScope(bed, bed.sandbox.seed.lists.empty),
				operation: 'create',
				email: 'typo@example.com',
				additionalFields: { customFields: typo },
			});
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe('The custom field "Compnay" does not exist on this list');
			expect(result.error?.description).toMatch(/^The list's custom fields are: \(none\)\. Names match ignoring case\./);
			expect(writes()).toEqual([]);
		});

		it('Create or Update refuses it too, before writing', async () => {
			const result = await subscriber({ operation: 'upsert', email: 'grace.hopper@example.com', additionalFields: { customFields: typo } });
			expectRefusedTypo(result);
			expect(writes()).toEqual([]);
		});

		it('Update refuses it after reading the subscriber, without a PATCH, and the subscriber is unchanged', async () => {
			const result = await subscriber({ operation: 'update', subscriberId: byId(grace()), updateFields: { customFields: typo, name: 'Changed' } });
			expectRefusedTypo(result);
			expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
			const read = await subscriber({ operation: 'get', subscriberId: byId(grace()) });
			expect(read.items[0]).toMatchObject({ name: 'Grace Hopper', custom_fields: { Company: 'Cobol Works' } });
		});

		it('Track Purchase refuses it before recording the sale', async () => {
			const result = await subscriber({
				operation: 'trackPurchase',
				email: 'buyer@example.com',
				ipAddress: '204.194.222.28',
				productName: 'Trail Jacket',
				value: 10,
				currency: 'USD',
				vendor: 'Sandbox Store',
				url: 'https://sandbox-outfitters.example/checkout',
				eventNote: 'Order 1',
				additionalFields: { customFields: typo },
			});
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe('The custom field "Compnay" does not exist on this list');
			expect(result.error?.description).toContain(`The list's custom fields are: ${knownFields}.`);
			expect(writes()).toEqual([]);
		});

		it('matches names ignoring case, as AWeber does, and reads the list\'s fields once per run', async () => {
			const result = await subscriber(
				{ operation: 'create', email: '={{ $json.email }}', additionalFields: { customFields: { field: [{ name: 'company', value: 'Acme' }] } } },
				{ items: [{ email: 'one@example.com' }, { email: 'two@example.com' }] },
			);
			expect(result.status).toBe('success');
			for (const item of result.items) expect(item.custom_fields).toMatchObject({ Company: 'Acme' });
			expect(callLines(bed).filter((line) => line === fieldsRead())).toHaveLength(1);
		});

		it('fails only the item with the unknown name under Continue On Fail', async () => {
			const result = await subscriber(
				{ operation: 'create', email: '={{ $json.email }}', additionalFields: { customFields: { field: [{ name: '={{ $json.field }}', value: 'x' }] } } },
				{
					continueOnFail: true,
					items: [
						{ email: 'first@example.com', field: 'Plan' },
						{ email: 'second@example.com', field: 'Plna' },
						{ email: 'third@example.com', field: 'plan' },
					],
				},
			);
			const output = result.output('Node Under Test');
			expect(output[0].json).toMatchObject({ email: 'first@example.com', custom_fields: { Plan: 'x' } });
			expect(output[1].error?.message).toBe('The custom field "Plna" does not exist on this list');
			expect(output[2].json).toMatchObject({ email: 'third@example.com', custom_fields: { Plan: 'x' } });
			expect(writes().map((call) => (call.body as IDataObject).email)).toEqual(['first@example.com', 'third@example.com']);
		});
	});

	describe('with "Ignore Unknown Custom Fields" (AWeber\'s permissive mode)', () => {
		it('Create sends the names unchecked and AWeber drops the unknown one', async () => {
			const result = await subscriber({
				operation: 'create',
				email: 'permissive@example.com',
				additionalFields: { customFields: { field: [{ name: 'Compnay', value: 'Acme' }, { name: 'Plan', value: 'pro' }] } },
				options: { ignoreUnknownCustomFields: true },
			});
			expect(result.status).toBe('success');
			expect(result.items[0].custom_fields).toEqual({ Company: null, Plan: 'pro', Birthday: null });
			expect(callLines(bed)).not.toContain(fieldsRead());
			expect(writes()[0].body).toMatchObject({ custom_fields: { Compnay: 'Acme', Plan: 'pro' } });
			expect(writes()[0].body).not.toHaveProperty('strict_custom_fields');
		});

		it('Update passes the unknown name on and keeps the other fields', async () => {
			const result = await subscriber({
				operation: 'update',
				subscriberId: byId(grace()),
				updateFields: { customFields: { field: [{ name: 'Compnay', value: 'Acme' }, { name: 'plan', value: 'team' }] } },
				options: { ignoreUnknownCustomFields: true },
			});
			expect(result.status).toBe('success');
			expect(result.items[0].custom_fields).toEqual({ Company: 'Cobol Works', Plan: 'team', Birthday: '1961-02-11' });
			expect(writes()[0].body).toMatchObject({ custom_fields: { Compnay: 'Acme', Plan: 'team' } });
		});

		it('does not loosen "Strict Custom Fields": exact names are still required', async () => {
			const result = await subscriber({
				operation: 'create',
				email: 'strict@example.com',
				additionalFields: { customFields: { field: [{ name: 'plan', value: 'pro' }] } },
				options: { ignoreUnknownCustomFields: true, strictCustomFields: true },
			});
			expect(result.error?.message).toBe('The custom field "plan" does not exist on this list');
			expect(result.error?.description).toContain('With "Strict Custom Fields" on, names must match exactly, including case.');
			expect(writes()).toEqual([]);
		});
	});

	it('Update under "Strict Custom Fields" with exact names asks AWeber to be strict too, and keeps the other fields', async () => {
		const result = await subscriber({
			operation: 'update',
			subscriberId: byId(grace()),
			updateFields: { customFields: { field: [{ name: 'Plan', value: 'team' }] } },
			options: { strictCustomFields: true },
		});
		expect(result.items[0].custom_fields).toEqual({ Company: 'Cobol Works', Plan: 'team', Birthday: '1961-02-11' });
		expect(writes()[0].body).toMatchObject({ strict_custom_fields: 'true', custom_fields: { Company: 'Cobol Works', Plan: 'team' } });
	});

	describe('in the node panel', () => {
		const properties = new AWeberSubscriber().description.properties;
		const shownFor = (operation: string, name: string) =>
			properties.filter((property) => property.name === name && property.displayOptions?.show?.operation?.includes(operation));
		const optionOf = (collection: INodeProperties | undefined, name: string) =>
			(collection?.options as INodeProperties[] | undefined)?.find((option) => option.name === name);

		it.each(['create', 'upsert', 'update'])('%s offers "Ignore Unknown Custom Fields", off by default, and Custom Fields says so', (operation) => {
			const [options] = shownFor(operation, 'options');
			const ignore = optionOf(options, 'ignoreUnknownCustomFields');
			expect(ignore).toMatchObject({ displayName: 'Ignore Unknown Custom Fields', type: 'boolean', default: false });
			expect(ignore?.description).toMatch(/AWeber to drop/);
			const [fields] = shownFor(operation, operation === 'update' ? 'updateFields' : 'additionalFields');
			expect(optionOf(fields, 'customFields')?.description).toMatch(
				/not a custom field of the list is an error listing the list's fields; to leave such names out as AWeber does, turn on "Ignore Unknown Custom Fields" under Options/,
			);
		});
	});
});
