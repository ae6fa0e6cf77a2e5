// IDs that fill a request's path (nodes/shared/pathParameters.ts): a value AWeber cannot have is refused before any
// request, naming the field; a value with spaces around it, or a number from an expression, is the ID it says.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, listPath, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

/** An ID field filled by an expression (what n8n's editor does not check as it checks a typed ID). */
const fromExpression = (expression: string) => ({ __rl: true, mode: 'id', value: `={{ ${expression} }}` });

async function getSubscribers(listId: IDataObject) {
	return await run(bed, 'aWeberSubscriber', { operation: 'getAll', accountId: byId(bed.sandbox.seed.accountId), listId, limit: 1 });
}

describe('The IDs in a request path', () => {
	it('refuses an empty List before any request, naming the field and what to do', async () => {
		const result = await getSubscribers(fromExpression('"  "'));
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The "List" field is empty');
		expect(result.error?.description).toBe('Choose a list from the list, or enter its ID or URL.');
		expect(apiCalls(bed)).toEqual([]);
	});

	it('reads a List ID with spaces around it, or given as a number, as that ID', async () => {
		const listId = bed.sandbox.seed.lists.newsletter;
		for (const expression of [`" ${listId} "`, String(listId)]) {
			const result = await getSubscribers(fromExpression(expression));
			expect(result.status).toBe('success');
		}
		expect(apiCalls(bed).map((call) => call.path)).toEqual([`${listPath(bed)}/subscribers`, `${listPath(bed)}/subscribers`]);
	});

	it('names a refused value whole up to 40 characters, and its first 40 and length beyond', async () => {
		const forty = await getSubscribers(fromExpression('"x".repeat(40)'));
		expect(forty.error?.message).toBe(`The "List" field must be a numeric AWeber ID, not "${'x'.repeat(40)}"`);
		expect(forty.error?.description).toBe('Choose a list from the list, or enter its ID or its AWeber URL.');
		const fortyOne = await getSubscribers(fromExpression('"y".repeat(41)'));
		expect(fortyOne.error?.message).toBe(`The "List" field must be a numeric AWeber ID, not "${'y'.repeat(40)}…" (41 characters)`);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('says "at most 20 digits" only of a value that is all digits', async () => {
		for (const value of [`${'1'.repeat(25)}x`, `x${'1'.repeat(25)}`]) {
			const result = await getSubscribers(fromExpression(`"${value}"`));
			expect(result.error?.message).toBe(`The "List" field must be a numeric AWeber ID, not "${value}"`);
		}
		const digits = await getSubscribers(fromExpression(`"${'1'.repeat(25)}"`));
		expect(digits.error?.message).toBe(`The "List" field must be a numeric AWeber ID, at most 20 digits long (AWeber's IDs fit in 64 bits), not "${'1'.repeat(25)}"`);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('refuses a List whose expression gives nothing (a field the item lacks, null) as empty, naming the field', async () => {
		for (const expression of ['$json.missing', 'null']) {
			const result = await getSubscribers(fromExpression(expression));
			expect(result.error?.message).toBe('The "List" field is empty');
		}
		expect(apiCalls(bed)).toEqual([]);
	});

	it('says "at most 20 digits" of a value longer than 20 characters, even one whose number is small', async () => {
		const padded = `${'0'.repeat(20)}1`;
		const result = await getSubscribers(fromExpression(`"${padded}"`));
		expect(result.error?.message).toBe(`The "List" field must be a numeric AWeber ID, at most 20 digits long (AWeber's IDs fit in 64 bits), not "${padded}"`);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('does not say "at most 20 digits" of a value of at most 20 digits refused for its form', async () => {
		const campaign = await run(bed, 'aWeberCampaign', { ...newsletterScope(bed), resource: 'campaign', operation: 'get', campaignId: fromExpression('"123"') });
		expect(campaign.error?.message).toBe('The "Campaign" field must be a campaign ID such as b123 (broadcast) or f456 (follow-up), not "123"');
		const twenty = '1'.repeat(20);
		const statistic = await run(bed, 'aWeberBroadcast', {
			...newsletterScope(bed),
			operation: 'getStatistic',
			broadcastId: byId(bed.sandbox.seed.broadcasts.sent),
			statisticId: `={{ "${twenty}" }}`,
		});
		expect(statistic.error?.message).toBe(`The "Statistic" field must be a statistic ID such as total_opens, not "${twenty}"`);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('sends a landing page ID with a long run of digits at either end as it is: only a numeric ID must fit in 64 bits', async () => {
		const digits = '9'.repeat(21);
		for (const id of [`page-${digits}`, `${digits}-page`]) {
			const result = await run(bed, 'aWeberLandingPage', { ...newsletterScope(bed), operation: 'get', landingPageId: fromExpression(`"${id}"`) });
			expect(result.error?.message ?? '').not.toMatch(/field must be/);
		}
		expect(apiCalls(bed).map((call) => call.path.split('/').at(-1))).toEqual([`page-${digits}`, `${digits}-page`]);
	});

	it('refuses a List that would change the request path, before any request', async () => {
		const listId = bed.sandbox.seed.lists.newsletter;
		const result = await getSubscribers(fromExpression(`"${listId}/../../${listId}"`));
		expect(result.error?.message).toBe(`The "List" field must be a numeric AWeber ID, not "${listId}/../../${listId}"`);
		expect(apiCalls(bed)).toEqual([]);
	});
});
