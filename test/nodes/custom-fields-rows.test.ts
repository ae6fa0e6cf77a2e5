// The rows of Custom Fields as a user fills them: a field named twice (in any case) is refused before anything is
// written, and a value's surrounding spaces are not sent to AWeber.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, newsletterScope, run } from './email-nodes.helpers';

describe('AWeber Subscriber node: the rows of Custom Fields', () => {
	const bed = useTestbed();
	const subscriber = (parameters: IDataObject) => run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters });
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
});
