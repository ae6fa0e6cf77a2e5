// On Error "stop the workflow" (the default) with several items: what the node sends once an item fails, and
// what the error says (docs/architecture.md#when-an-item-fails). n8n's own nodes handle items one after the other:
// the items before the failing one are carried out, nothing is sent for those after it. Item numbers are n8n's,
// from 0, everywhere.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { listPath, newsletterScope } from './email-nodes.helpers';

const bed = useTestbed();

const subscribersPath = () => `${listPath(bed)}/subscribers`;

/** The adds AWeber received, by email, with its answer. */
function addsReceived(): Array<{ email: string; status: number }> {
	return bed.sandbox
		.requests()
		.filter((entry) => entry.method === 'POST' && entry.path === subscribersPath())
		.map((entry) => ({ email: String((entry.body as IDataObject).email), status: entry.status }));
}

const contact = (index: number) => ({ email: `batch-${index}@example.com` });

async function runBatch(operation: 'create' | 'upsert', items: IDataObject[]) {
	return await bed.harness.runNode(
		{
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: { operation, ...newsletterScope(bed), email: '={{ $json.email }}' },
		},
		items,
	);
}

/** The item numbers the error's description lists as written ("items 0, 1 and 3", "items 0-27 and 29"). */
function itemsNamedWritten(description: string | undefined): number[] {
	const match = /(\d+) items? (?:was|were) written to AWeber in this run: items? ([\d, and-]+?)[.(]/.exec(description ?? '');
	if (!match) return /No item of this run was written to AWeber/.test(description ?? '') ? [] : [-1];
	return match[2]
		.split(/, | and /)
		.flatMap((part) => {
			const [from, to] = part.trim().split('-').map(Number);
			return to === undefined ? [from] : Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
		})
		.sort((a, b) => a - b);
}

describe('AWeber refuses an item in the middle of a batch, On Error "stop the workflow"', () => {
	const cases: Array<[number, number]> = [
		[6, 0],
		[6, 2],
		[6, 5],
		[30, 1],
		[30, 13],
		[30, 29],
	];

	it.each(cases)('batch of %i, item %i already on the list: its own error, and the items written are named', async (size, refused) => {
		const duplicate = { email: 'already.here@example.com' };
		expect((await runBatch('create', [duplicate])).status).toBe('success');
		bed.sandbox.clearRequests();

		const items = Array.from({ length: size }, (_, index) => (index === refused ? duplicate : contact(index)));
		const result = await runBatch('create', items);

		expect(result.status).toBe('error');
		// The failing item's own error, with AWeber's message, numbered as n8n numbers items.
		expect(result.error?.message).toBe('already.here@example.com is already subscribed to this list.');
		expect(result.error?.context?.itemIndex).toBe(refused);
		const adds = addsReceived();
		const written = items.map((item, index) => ({ index, ...item })).filter((item) => adds.some((add) => add.email === item.email && add.status === 201));
		// Every item before the refused one is carried out, as n8n's own nodes would.
		expect(written.filter((item) => item.index < refused).map((item) => item.index)).toEqual(Array.from({ length: refused }, (_, index) => index));
		// The description names exactly the items AWeber wrote (those after the refusal were already on their way).
		expect(itemsNamedWritten(result.error?.description)).toEqual(written.map((item) => item.index));
		expect(result.error?.description).toContain(`Nothing was sent for the items after item ${refused}`);
		// Nothing is sent twice, and nothing after the refusal but what was already on its way.
		expect(adds.filter((add) => add.status === 201)).toHaveLength(written.length);
	});
});

describe('A bad input found before any request, On Error "stop the workflow"', () => {
	it('Create or Update with the second of three contacts not an email: the first is written, nothing is sent for the third', async () => {
		const items = [contact(0), { email: 'not-an-email' }, contact(2)];
		const result = await runBatch('upsert', items);

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The "Email" field must be an email address, not "not-an-email"');
		expect(result.error?.context?.itemIndex ?? (result.error as { itemIndex?: number } | undefined)?.itemIndex).toBe(1);
		expect(addsReceived()).toEqual([{ email: contact(0).email, status: 201 }]);
		expect(result.error?.description).toContain('1 item was written to AWeber in this run: item 0.');
		expect(result.error?.description).toContain('Nothing was sent for the items after item 1');
		expect(result.error?.description).toMatch(/Turn on the node's "On Error: Continue" setting to get every item's own result instead.$/);
	});

	it('Create with the first of three contacts not an email: nothing is sent at all, and the error says so', async () => {
		const items = [{ email: 'not-an-email' }, contact(1), contact(2)];
		const result = await runBatch('create', items);

		expect(result.error?.message).toBe('The "Email" field must be an email address, not "not-an-email"');
		expect(bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'))).toEqual([]);
		expect(result.error?.description).toContain('No item of this run was written to AWeber.');
	});

	it('Create with the last of six contacts not an email: the five before it are written and named', async () => {
		const items = [...Array.from({ length: 5 }, (_, index) => contact(index)), { email: 'not-an-email' }];
		const result = await runBatch('create', items);

		expect(result.error?.message).toBe('The "Email" field must be an email address, not "not-an-email"');
		expect(addsReceived().map((add) => add.status)).toEqual([201, 201, 201, 201, 201]);
		expect(result.error?.description).toContain('5 items were written to AWeber in this run: items 0-4.');
	});
});
