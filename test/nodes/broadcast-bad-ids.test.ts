// A broadcast's list and segment pickers given something that is no AWeber ID: refused before any request, the
// error naming the field the user filled.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, newsletterScope, run } from './email-nodes.helpers';

describe('AWeber Broadcast node: IDs that are no AWeber IDs', () => {
	const bed = useTestbed();
	const create = (additionalFields: IDataObject) =>
		run(bed, 'aWeberBroadcast', { ...newsletterScope(bed), operation: 'create', subject: 'Spring sale', bodyText: 'Hello', additionalFields });

	it.each([
		['Include Lists', { includeLists: { lists: [{ list: byId('spring') }] } }, 'The "Include Lists" field must be a numeric AWeber ID, not "spring"'],
		['Exclude Lists', { excludeLists: { lists: [{ list: byId('spring') }] } }, 'The "Exclude Lists" field must be a numeric AWeber ID, not "spring"'],
		['Segment', { segment: byId('vip') }, 'The "Segment" field must be a numeric AWeber ID, not "vip"'],
	])('%s', async (_field, additionalFields, message) => {
		const result = await create(additionalFields);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(message);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('an empty entry of Exclude Lists, by its place', async () => {
		const result = await create({ excludeLists: { lists: [{ list: byId(String(bed.sandbox.seed.lists.bulk)) }, { list: byId('') }] } });
		expect(result.error?.message).toBe('List 2 of "Exclude Lists" is empty');
		expect(apiCalls(bed)).toEqual([]);
	});
});
