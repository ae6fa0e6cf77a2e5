// On Error "stop the workflow": the failing item's error says which items of the run AWeber wrote, word for word
// (docs/architecture.md#when-an-item-fails): items before the failing one carried out, those after it only when
// already on their way, in n8n's numbering with runs of items as ranges. Which item is slow is set by its list:
// the Newsletter list answers at once, the Customers list late (a sandbox "slow" fault on its path).
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { byId, listPath } from './email-nodes.helpers';

const bed = useTestbed();

const SLOW_MS = 1_500;
const duplicate = 'already.here@example.com';
const UNTIL_THE_END =
	'item numbers are n8n\'s, from 0. Turn on the node\'s "On Error: Continue" setting to get every item\'s own result instead.';

type Item = { email: string; list: 'newsletter' | 'customers' };
const fresh = (index: number, list: Item['list'] = 'newsletter'): Item => ({ email: `account-${index}@example.com`, list });

/** Creates each item's subscriber on its own list, Output "Request Summary" (one request per item) unless told. */
async function createEach(items: Item[], output: 'summary' | 'subscriber' = 'summary') {
	const seed = bed.sandbox.seed;
	return await bed.harness.runNode(
		{
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: {
				operation: 'create',
				accountId: byId(seed.accountId),
				listId: byId('={{ $json.list }}'),
				email: '={{ $json.email }}',
				output,
			},
		},
		items.map((item): IDataObject => ({ ...item, list: seed.lists[item.list] })),
	);
}

/** The adds AWeber carried out, by email. */
const written = () =>
	bed.sandbox
		.requests()
		.filter((entry) => entry.method === 'POST' && entry.status === 201)
		.map((entry) => String((entry.body as IDataObject).email));

/** The adds on the Customers list answer after `SLOW_MS`. */
function slowCustomers(count: number) {
	bed.sandbox.faults.next(count, 'slow', { delayMs: SLOW_MS, method: 'POST', pathPrefix: `${listPath(bed, bed.sandbox.seed.lists.customers)}/subscribers` });
}

async function alreadyOnTheNewsletter() {
	expect((await createEach([{ email: duplicate, list: 'newsletter' }])).status).toBe('success');
	bed.sandbox.clearRequests();
}

describe('the failing item names the items written, word for word', () => {
	it('two items after the failure already on their way: "items 0, 2 and 3 (items 2 and 3 after this failure …)"', async () => {
		await alreadyOnTheNewsletter();
		slowCustomers(2);
		const result = await createEach([fresh(0), { email: duplicate, list: 'newsletter' }, fresh(2, 'customers'), fresh(3, 'customers')]);

		expect(result.error?.message).toBe(`${duplicate} is already subscribed to this list.`);
		expect(written().sort()).toEqual([fresh(0).email, fresh(2).email, fresh(3).email]);
		expect(result.error?.description).toContain(
			`\n3 items were written to AWeber in this run: items 0, 2 and 3 (items 2 and 3 after this failure: they were already on their way). Nothing was sent for the items after item 1; ${UNTIL_THE_END}`,
		);
	});

	it('one item after the failure already on its way: "item 1 (item 1 after this failure: it was …)"', async () => {
		await alreadyOnTheNewsletter();
		slowCustomers(1);
		const result = await createEach([{ email: duplicate, list: 'newsletter' }, fresh(1, 'customers')]);

		expect(written()).toEqual([fresh(1).email]);
		expect(result.error?.description).toContain(
			`\n1 item was written to AWeber in this run: item 1 (item 1 after this failure: it was already on its way). Nothing was sent for the items after item 0; ${UNTIL_THE_END}`,
		);
	});

	it('an item after the failing one written before the failure came is named without "after this failure"', async () => {
		await alreadyOnTheNewsletter();
		// The refusal comes late: the item after it was written first.
		bed.sandbox.faults.next(1, 'slow', { delayMs: SLOW_MS, method: 'POST', pathPrefix: `${listPath(bed)}/subscribers` });
		const result = await createEach([{ email: duplicate, list: 'newsletter' }, fresh(1, 'customers')]);

		expect(written()).toEqual([fresh(1).email]);
		expect(result.error?.description).toContain(`\n1 item was written to AWeber in this run: item 1. Nothing was sent for the items after item 0; ${UNTIL_THE_END}`);
	});

	it('items before the failing one written in another order, the first of them after the failure: "items 0-2", in order', async () => {
		slowCustomers(1);
		const result = await createEach([fresh(0, 'customers'), fresh(1), fresh(2), { email: 'not-an-email', list: 'newsletter' }]);

		expect(result.error?.message).toBe('The "Email" field must be an email address, not "not-an-email"');
		// Item 0 was written last.
		expect(written()).toHaveLength(3);
		expect(written()[2]).toBe(fresh(0).email);
		expect(result.error?.description).toBe(`3 items were written to AWeber in this run: items 0-2. Nothing was sent for the items after item 3; ${UNTIL_THE_END}`);
	});
});

describe('an item whose add was carried out and whose read-back failed', () => {
	it('takes over as the failing item from a later one refused before any request, and says so once', async () => {
		const subscribers = `${listPath(bed)}/subscribers/`;
		bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: subscribers, status: 404, body: { error: { status: 404, type: 'NotFoundError', message: 'Resource not found' } } });
		const result = await createEach([fresh(0), { email: 'not-an-email', list: 'newsletter' }], 'subscriber');

		expect(written()).toEqual([fresh(0).email]);
		expect(result.error?.context?.itemIndex).toBe(0);
		const description = result.error?.description ?? '';
		// Its own add is written, though its read-back failed.
		expect(description).toContain(`\n1 item was written to AWeber in this run: item 0. Nothing was sent for the items after item 0; ${UNTIL_THE_END}`);
		// Its account of the run is given once, after its own description.
		expect(description.split('Nothing was sent for the items after item')).toHaveLength(2);
	});
});

describe('an add retried after a lost answer, refused as already subscribed, whose look-up finds no earlier add', () => {
	it('fails without counting itself as written: the look-up is no write', async () => {
		const subscribers = `${listPath(bed)}/subscribers`;
		// The first attempt's answer is lost (its outcome unknown); the retry is refused as a duplicate, and AWeber's
		// find then shows no subscriber with that address on the list: no earlier add to recover.
		bed.sandbox.faults.next(1, '503', { method: 'POST', pathPrefix: subscribers });
		const refusal = { error: { status: 400, type: 'WebAPIError', message: `${fresh(0).email} is already subscribed.` } };
		bed.sandbox.faults.next(1, 'answer', { method: 'POST', pathPrefix: subscribers, status: 400, body: refusal });
		const result = await createEach([fresh(0), { email: 'not-an-email', list: 'newsletter' }], 'subscriber');

		expect(written()).toEqual([]);
		expect(bed.sandbox.requests().some((entry) => entry.method === 'GET' && entry.query['ws.op'] === 'find')).toBe(true);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(result.error?.description).toContain(`\nNo item of this run was written to AWeber. Nothing was sent for the items after item 0; ${UNTIL_THE_END}`);
	});
});
