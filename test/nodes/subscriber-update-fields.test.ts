// What Update sends: "Add Tags" and "Remove Tags" (only the lists given; a tag in both is added, not removed; a value
// that is no list of tags refused before any request, naming its field, per item), and nothing at all when no field
// given holds a change.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, newsletterScope, run } from './email-nodes.helpers';

describe('AWeber Subscriber node: what Update sends', () => {
	const bed = useTestbed();
	/** Grace Hopper, on Newsletter: tags trial + customer. */
	const grace = () => bed.sandbox.seed.subscribers.subscribed + 1;
	const update = async (updateFields: IDataObject, options: { items?: IDataObject[]; continueOnFail?: boolean } = {}) =>
		await run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), operation: 'update', subscriberId: byId(grace()), updateFields }, options);
	const sentTags = () => (apiCalls(bed).find((call) => call.method === 'PATCH')?.body as IDataObject | undefined)?.tags;

	it.each([
		['only tags to add', { addTags: ['webinar'] }, { add: ['webinar'] }, ['trial', 'customer', 'webinar']],
		['only tags to remove', { removeTags: ['trial'] }, { remove: ['trial'] }, ['customer']],
		['a tag both to add and to remove: it is added', { addTags: ['trial'], removeTags: ['trial', 'customer'] }, { add: ['trial'], remove: ['customer'] }, ['trial']],
		['the same tag only, in both', { addTags: ['vip'], removeTags: ['vip'] }, { add: ['vip'] }, ['trial', 'customer', 'vip']],
	])('sends %s', async (_case, updateFields, sent, tags) => {
		const result = await update(updateFields);
		expect(result.items[0].tags).toEqual(tags);
		expect(sentTags()).toEqual(sent);
	});

	it.each([
		['Add Tags', 'addTags'],
		['Remove Tags', 'removeTags'],
	])('refuses "%s" that is no list before any request, naming the field, per item', async (label, parameter) => {
		const result = await update({ [parameter]: '={{ $json.tags }}' }, { items: [{ tags: 5 }, { tags: { vip: true } }], continueOnFail: true });
		expect(result.items.map((item) => item.error)).toEqual([
			`The "${label}" field must be a list of tags or a comma-separated text, not a number`,
			`The "${label}" field must be a list of tags or a comma-separated text, not an object`,
		]);
		expect(apiCalls(bed)).toEqual([]);
	});

	it.each([
		['no field', {}],
		['only a blank name (a name is sent only when given)', { name: '   ' }],
	])('refuses an update with %s before any request, saying what to do', async (_case, updateFields) => {
		const result = await update(updateFields);
		expect(result.error?.message).toBe('No change given');
		expect(result.error?.description).toBe('Add at least one field under "Update Fields".');
		expect(apiCalls(bed)).toEqual([]);
	});
});
