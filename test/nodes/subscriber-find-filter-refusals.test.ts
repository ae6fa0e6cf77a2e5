// Find's filters refused before any request, each naming the field the user filled, per item under Continue On Fail.
import { useTestbed } from '../harness/aweber';
import { apiCalls, newsletterScope, run } from './email-nodes.helpers';

describe('AWeber Subscriber node: Find refuses a bad filter, naming its field', () => {
	const bed = useTestbed();

	it('refuses a bad Email, Tags or Without Tags per item, before any request', async () => {
		const result = await run(
			bed,
			'aWeberSubscriber',
			{ operation: 'find', ...newsletterScope(bed), filters: { email: '={{ $json.email }}', tags: '={{ $json.tags }}', tagsNotIn: '={{ $json.without }}' }, returnAll: true },
			{
				items: [
					{ email: 'ada at example.com' },
					{ email: 'ada.lovelace@example.com', tags: 7 },
					{ email: 'ada.lovelace@example.com', without: 7 },
				],
				continueOnFail: true,
			},
		);
		expect(result.items.map((item) => item.error)).toEqual([
			'The "Email" field must be an email address, not "ada at example.com"',
			'The "Tags" field must be a list of tags or a comma-separated text, not a number',
			'The "Without Tags" field must be a list of tags or a comma-separated text, not a number',
		]);
		expect(apiCalls(bed)).toEqual([]);
	});
});
