// Update's "Add Tags" and "Remove Tags": a value that is no list of tags is refused before any request, naming the
// field it came from, and only that item fails under Continue On Fail.
import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, newsletterScope, run } from './email-nodes.helpers';

describe('AWeber Subscriber node: Update with tags that are no list', () => {
	const bed = useTestbed();
	const grace = () => bed.sandbox.seed.subscribers.subscribed + 1;

	it.each([
		['Add Tags', 'addTags'],
		['Remove Tags', 'removeTags'],
	])('refuses "%s" before any request, naming the field, per item', async (label, parameter) => {
		const result = await run(
			bed,
			'aWeberSubscriber',
			{ ...newsletterScope(bed), operation: 'update', subscriberId: byId(grace()), updateFields: { [parameter]: '={{ $json.tags }}' } },
			{ items: [{ tags: 5 }, { tags: { vip: true } }], continueOnFail: true },
		);
		expect(result.items.map((item) => item.error)).toEqual([
			`The "${label}" field must be a list of tags or a comma-separated text, not a number`,
			`The "${label}" field must be a list of tags or a comma-separated text, not an object`,
		]);
		expect(apiCalls(bed)).toEqual([]);
	});
});
