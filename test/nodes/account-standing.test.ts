// AWeber's refusals about the account rather than the request (docs/aweber-behaviour.md#account-standing): a held
// account, the plan's subscriber limit, an address AWeber "cannot accept at this time". Each becomes an error saying
// what happened and what to do, per item, without a retry, and the other items go on under Continue On Fail.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, listPath, newsletterScope, run } from './email-nodes.helpers';

describe("AWeber Subscriber node: refusals about the account's standing", () => {
	const bed = useTestbed();

	const subscriber = (parameters: IDataObject, options: { items?: IDataObject[]; continueOnFail?: boolean } = {}) =>
		run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), output: 'summary', ...parameters }, options);
	const posts = () => apiCalls(bed).filter((call) => call.method === 'POST');
	const storedEmails = async () =>
		(await run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), operation: 'getAll', returnAll: true })).items.map((item) => item.email);

	it('a held account: says AWeber put it on hold, that nothing was written, and to import lists with the importer', async () => {
		bed.sandbox.setAccountStanding('on-hold');
		const result = await subscriber({ operation: 'create', email: 'held.signup@example.com' });
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/on hold/);
		expect(result.error?.description).toMatch(/AWeber has put the account on hold, so it refuses changes to subscribers; nothing was written/);
		expect(result.error?.description).toMatch(/contact AWeber's support/);
		expect(result.error?.description).toMatch(/import existing lists with AWeber's importer \(Subscribers > Add Subscribers in AWeber, then import a file\)/);
		expect(result.error?.description).toMatch(/HTTP status: 403/);
		// Not retried: sending again does not change the account.
		expect(posts()).toHaveLength(1);
	});

	it('the subscriber limit: says the plan is full and what to do; changes to existing subscribers still go through', async () => {
		bed.sandbox.setAccountStanding('subscriber-limit');
		const result = await subscriber(
			{ operation: 'upsert', email: '={{ $json.email }}', additionalFields: { name: '={{ $json.name }}' } },
			{ continueOnFail: true, items: [{ email: 'room.needed@example.com', name: 'New' }, { email: 'ada.lovelace@example.com', name: 'Ada L.' }] },
		);
		expect(result.status).toBe('success');
		const [refused, updated] = result.output('Node Under Test');
		expect(refused.error?.message).toMatch(/Subscriber limit reached/);
		expect(refused.error?.description).toMatch(/reached its plan's subscriber limit.*Upgrade the account's plan in AWeber, or remove subscribers you no longer send to, then run the failed items again/);
		expect(updated.json).toMatchObject({ email: 'ada.lovelace@example.com', name: 'Ada L.' });
		expect(posts()).toHaveLength(2);
		bed.sandbox.setAccountStanding('good');
		expect(await storedEmails()).not.toContain('room.needed@example.com');
	});

	it('an address AWeber "cannot accept at this time": that item fails with what to do, the others are added', async () => {
		bed.sandbox.setAccountStanding('good', { refusedEmails: ['not.now@example.com'] });
		const result = await subscriber(
			{ operation: 'create', email: '={{ $json.email }}' },
			{ continueOnFail: true, items: [{ email: 'first.signup@example.com' }, { email: 'not.now@example.com' }, { email: 'last.signup@example.com' }] },
		);
		expect(result.status).toBe('success');
		const output = result.output('Node Under Test');
		expect(output[0].json).toMatchObject({ email: 'first.signup@example.com' });
		expect(output[1].error?.message).toBe('This email address cannot be accepted at this time.');
		expect(output[1].error?.description).toMatch(/AWeber refused this address for now without saying why; nothing was written for this item\. Check the address, and if it is right, run the item again later/);
		expect(output[2].json).toMatchObject({ email: 'last.signup@example.com' });
		expect(posts().map((call) => (call.body as IDataObject).email)).toEqual(['first.signup@example.com', 'not.now@example.com', 'last.signup@example.com']);
		const stored = await storedEmails();
		expect(stored).toEqual(expect.arrayContaining(['first.signup@example.com', 'last.signup@example.com']));
		expect(stored).not.toContain('not.now@example.com');
	});

	it('Track Purchase of a new buyer on a held account is refused the same way', async () => {
		bed.sandbox.setAccountStanding('on-hold');
		const result = await run(bed, 'aWeberSubscriber', {
			...newsletterScope(bed),
			operation: 'trackPurchase',
			email: 'buyer@example.com',
			ipAddress: '204.194.222.28',
			productName: 'Tent',
			value: 120,
			currency: 'USD',
			vendor: 'Shop',
			url: 'https://shop.example.com/tent',
			eventNote: 'Order 1',
		});
		expect(result.status).toBe('error');
		expect(result.error?.description).toMatch(/AWeber has put the account on hold/);
		expect(apiCalls(bed).map((call) => `${call.method} ${call.path}`)).toEqual([`POST ${listPath(bed)}/purchases`]);
	});
});
