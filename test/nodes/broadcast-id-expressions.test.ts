// A broadcast's segment, list and integration pickers filled by an expression: a number or text with spaces around it
// is the ID AWeber receives; nothing (null, a missing field) leaves the field unset; anything else is refused before
// any request, naming the field and what it got, rather than sending the broadcast to the whole list.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, newsletterScope, run } from './email-nodes.helpers';

const byExpression = (expression: string) => ({ __rl: true, mode: 'id', value: `={{ ${expression} }}` });

describe('AWeber Broadcast node: IDs from expressions', () => {
	const bed = useTestbed();
	const create = (additionalFields: IDataObject, item: IDataObject = {}) =>
		run(bed, 'aWeberBroadcast', { ...newsletterScope(bed), operation: 'create', subject: 'Spring sale', bodyText: 'Hello', additionalFields }, { items: [item] });
	const accountUrl = () => `${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}`;
	const sent = () => apiCalls(bed).find((call) => call.method === 'POST')?.body as IDataObject | undefined;

	it.each([
		['a number', '$json.segment', { segment: 603 }],
		['text with spaces around it', '$json.segment', { segment: ' 603\n' }],
	])('takes %s as the segment', async (_case, expression, item) => {
		const result = await create({ segment: byExpression(expression) }, item);
		expect(result.status).toBe('success');
		expect(sent()?.segment_link).toBe(`${accountUrl()}/lists/${bed.sandbox.seed.lists.newsletter}/segments/603`);
	});

	it('takes a number as a list to include and as an integration', async () => {
		const { seed } = bed.sandbox;
		const result = await create(
			{ includeLists: { lists: [{ list: byExpression('$json.list') }] }, facebookIntegration: byExpression('$json.facebook') },
			{ list: seed.lists.customers, facebook: seed.integrations.facebook },
		);
		expect(result.status).toBe('success');
		expect(sent()).toMatchObject({
			include_lists: JSON.stringify([`${accountUrl()}/lists/${seed.lists.customers}`]),
			facebook_integration: `${accountUrl()}/integrations/${seed.integrations.facebook}`,
		});
	});

	it.each([
		['null', '$json.segment', { segment: null }],
		['a missing field', '$json.segment', {}],
	])('leaves the segment unset for %s', async (_case, expression, item) => {
		const result = await create({ segment: byExpression(expression) }, item);
		expect(result.status).toBe('success');
		expect(sent()).not.toHaveProperty('segment_link');
	});

	it.each([
		['a boolean', { segment: true }, 'a boolean'],
		['an object', { segment: { id: 603 } }, 'an object'],
		['a list', { segment: [603] }, 'a list'],
	])('refuses %s as the segment before any request, naming the field', async (_case, item, what) => {
		const result = await create({ segment: byExpression('$json.segment') }, item);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`The "Segment" field must be a numeric AWeber ID, not ${what}`);
		expect(result.error?.description).toBe('Choose the segment from the list, or enter its ID or URL.');
		expect(apiCalls(bed)).toEqual([]);
	});

	it.each(['603abc', 'abc603', '6 03'])('refuses the text "%s" as the segment: an ID is digits only', async (text) => {
		const result = await create({ segment: byExpression('$json.segment') }, { segment: text });
		expect(result.error?.message).toBe(`The "Segment" field must be a numeric AWeber ID, not "${text}"`);
		expect(apiCalls(bed)).toEqual([]);
	});
});
