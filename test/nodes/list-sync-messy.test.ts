// The "Keep a list in sync" example on the data users really have (issue 49): each case runs the example's real nodes
// twice with the same messy source against the sandbox, and the second run writes nothing. Also the guard against
// emptying a list (an empty source, an address column named `Email`) and the wording for a missing address.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { exampleSource, readList, runSync, SYNC_NODES, type SourceContact } from '../harness/listSync';

const SHAPE = 'Shape contacts like AWeber';
const SAMPLE = exampleSource();
type Row = Omit<SourceContact, 'tags' | 'plan' | 'company' | 'email'> & { email?: unknown; tags?: unknown; plan?: unknown; company?: unknown; Email?: string };

describe('Keep a list in sync on messy data: the second run writes nothing', () => {
	const bed = useTestbed();
	const customers = () => bed.sandbox.seed.lists.customers;
	const accountId = () => bed.sandbox.seed.accountId;
	/** The Subscriber node on the customers list, its subscriber chosen by each item's email. */
	const runOnList = async (parameters: IDataObject, emails: string[]) =>
		await bed.harness.runNode(
			{
				type: 'aWeberSubscriber',
				credentialId: bed.credentialId,
				parameters: {
					accountId: { __rl: true, mode: 'id', value: String(accountId()) },
					listId: { __rl: true, mode: 'id', value: String(customers()) },
					subscriberId: { __rl: true, mode: 'email', value: '={{ $json.email }}' },
					...parameters,
				},
			},
			emails.map((email) => ({ email })),
		);
	const storedList = async () => await readList(bed.sandbox.apiBaseUrl, bed.sandbox.issueToken().access_token, accountId(), customers());
	const stored = async (email: string) => (await storedList()).find((subscriber) => subscriber.email === email);
	const sync = async (source: Row[], options: { unsubscribe?: boolean } = {}) =>
		await runSync(bed.harness, source as unknown as SourceContact[], { credentialId: bed.credentialId, accountId: accountId(), listId: customers(), ...options });
	/** Writes AWeber received since the last call, as `METHOD email-or-id`. */
	const takeWrites = () => {
		const writes = bed.sandbox
			.requests()
			.filter((entry) => entry.path.startsWith('/1.0/') && entry.method !== 'GET')
			.map((entry) => `${entry.method} ${(entry.body as { email?: string }).email ?? entry.query.subscriber_email ?? entry.path.split('/').pop()}`);
		bed.sandbox.clearRequests();
		return writes.sort();
	};
	/** Runs the example twice on the same source: the first run's writes, and the second's (none). */
	const twice = async (source: Row[], options: { unsubscribe?: boolean } = {}) => {
		bed.sandbox.clearRequests();
		const first = await sync(source, options);
		expect(first.status).toBe('success');
		const firstWrites = takeWrites();
		const second = await sync(source, options);
		expect(second.status).toBe('success');
		return { first, firstWrites, second, secondWrites: takeWrites() };
	};
	const margaret = (overrides: Partial<Row>): Row => ({ ...SAMPLE.find((contact) => contact.firstName === 'Margaret')!, ...overrides });
	const withContact = (email: string, overrides: Partial<Row>): Row[] => SAMPLE.map((contact) => (contact.email === email ? { ...contact, ...overrides } : contact));

	it('case 1: tags given as a comma-separated text are stored as those tags, not as characters', async () => {
		const source = [...SAMPLE.filter((contact) => contact.firstName !== 'Margaret'), margaret({ tags: 'vip, customer' })];
		const { firstWrites, secondWrites } = await twice(source);
		expect(firstWrites).toContain('POST margaret.hamilton@example.com');
		expect((await stored('margaret.hamilton@example.com'))?.tags.sort()).toEqual(['customer', 'vip']);
		expect(secondWrites).toEqual([]);
	});

	it('case 2: padded tags, a padded name, and custom field values given as a number, a boolean or with spaces settle after one run', async () => {
		let source = withContact('sophie.wilson@example.com', { firstName: ' Sophie', lastName: 'Wilson ', tags: [' vip ', 'customer ', 'vip', ''], plan: 3 });
		source = source.map((contact) => (contact.email === 'mary.keller@example.com' ? { ...contact, company: '  Shortest Path Co  ', plan: true } : contact));
		source = source.map((contact) => (contact.email === 'jean.sammet@example.com' ? { ...contact, company: null, plan: ' free ' } : contact));
		const { firstWrites, secondWrites } = await twice(source);
		expect(firstWrites).toEqual(expect.arrayContaining(['PATCH sophie.wilson@example.com', 'PATCH mary.keller@example.com']));
		expect(await stored('sophie.wilson@example.com')).toMatchObject({ name: 'Sophie Wilson', custom_fields: { Plan: '3' } });
		expect((await stored('sophie.wilson@example.com'))?.tags.sort()).toEqual(['customer', 'vip']);
		expect(await stored('mary.keller@example.com')).toMatchObject({ custom_fields: { Company: 'Shortest Path Co', Plan: 'true' } });
		expect(await stored('jean.sammet@example.com')).toMatchObject({ custom_fields: { Company: null, Plan: 'free' } });
		expect(secondWrites).toEqual([]);
	});

	it('case 3: with Unsubscribe on, an unsubscribed subscriber is never written again, in the source or not', async () => {
		// Mary Keller is unsubscribed on the seeded list. Not in the source: not unsubscribed again.
		const withoutMary = SAMPLE.filter((contact) => contact.email !== 'mary.keller@example.com');
		const notInSource = await twice(withoutMary, { unsubscribe: true });
		expect(notInSource.firstWrites).toEqual(['PATCH bjarne.stroustrup@example.com', 'PATCH jean.sammet@example.com', 'PATCH sophie.wilson@example.com', 'POST margaret.hamilton@example.com']);
		expect(notInSource.secondWrites).toEqual([]);
		expect(await stored('mary.keller@example.com')).toMatchObject({ status: 'unsubscribed' });

		// In the source with new data: written once, stays unsubscribed, then left alone.
		const changedMary = withContact('mary.keller@example.com', { plan: 'enterprise' });
		const inSource = await twice(changedMary, { unsubscribe: true });
		expect(inSource.firstWrites).toEqual(['PATCH mary.keller@example.com']);
		expect(await stored('mary.keller@example.com')).toMatchObject({ status: 'unsubscribed', custom_fields: { Plan: 'enterprise' } });
		expect(inSource.secondWrites).toEqual([]);
	});

	it('case 4: an address given twice is written once, from its last row, and the run names it', async () => {
		const hedy = { email: 'hedy.lamarr@example.com', firstName: 'Hedy', lastName: 'Lamarr', company: 'Spread Spectrum', plan: 'pro', tags: [] };
		const source: Row[] = [
			...withContact('sophie.wilson@example.com', { plan: 'team' }),
			{ ...SAMPLE.find((contact) => contact.firstName === 'Sophie')!, email: 'Sophie.Wilson@example.com ', plan: 'enterprise' },
			hedy,
			{ ...hedy, plan: 'team' },
		];
		const logs = recordNodeLogs();
		const { first, firstWrites, secondWrites } = await twice(source).finally(logs.restore);
		// Said on each run, once, in n8n's log (and a manual run's browser console), naming the addresses and their items.
		expect(logs.lines.filter((line) => /given on more than one item/.test(line.message)).map((line) => line.message)).toEqual(
			Array(2).fill('AWeber: 2 address(es) given on more than one item; each is output once, from its last item: sophie.wilson@example.com (items 2, 6); hedy.lamarr@example.com (items 7, 8)'),
		);
		expect(firstWrites).toEqual(['PATCH jean.sammet@example.com', 'PATCH sophie.wilson@example.com', 'POST hedy.lamarr@example.com', 'POST margaret.hamilton@example.com']);
		expect(first.json(SYNC_NODES.create).every((item) => item.error === undefined)).toBe(true);
		expect(await stored('sophie.wilson@example.com')).toMatchObject({ custom_fields: { Plan: 'enterprise' } });
		expect(await stored('hedy.lamarr@example.com')).toMatchObject({ custom_fields: { Plan: 'team' } });
		expect(first.json(SHAPE).map((item) => item.email)).toEqual([
			'ada.lovelace@example.com',
			'jean.sammet@example.com',
			'mary.keller@example.com',
			'margaret.hamilton@example.com',
			'sophie.wilson@example.com',
			'hedy.lamarr@example.com',
		]);
		expect(secondWrites).toEqual([]);
	});

	it('case 5: an empty source, with Unsubscribe on, is stopped by the guard before anything is written', async () => {
		const before = await storedList();
		bed.sandbox.clearRequests();
		const result = await sync([], { unsubscribe: true });
		expect(takeWrites()).toEqual([]);
		expect(result.json(SYNC_NODES.unsubscribe)).toEqual([
			expect.objectContaining({ error: "This run would unsubscribe 4 of the list's 4 subscribed subscribers, more than the limit of 1 (10 % of them)" }),
			expect.anything(),
			expect.anything(),
			expect.anything(),
		]);
		expect(await storedList()).toEqual(before);
	});

	it('case 5: a source whose address column is `Email`, with Unsubscribe on, fails each row as "no email address given" and writes nothing', async () => {
		const before = await storedList();
		const source = SAMPLE.map(({ email, ...rest }) => ({ ...rest, Email: email }));
		bed.sandbox.clearRequests();
		const result = await sync(source, { unsubscribe: true });
		expect(takeWrites()).toEqual([]);
		const failed = result.run.data.resultData.runData[SHAPE][0].data?.main[1] ?? [];
		expect(failed.map((item) => (item.json.error as IDataObject).message)).toEqual(Array(5).fill('The "Email" field is empty: no email address given'));
		expect(result.run.data.resultData.runData[SYNC_NODES.create]).toBeUndefined();
		expect(result.json(SYNC_NODES.unsubscribe).map((item) => item.error)).toEqual(
			Array(4).fill("This run would unsubscribe 4 of the list's 4 subscribed subscribers, more than the limit of 1 (10 % of them)"),
		);
		expect(await storedList()).toEqual(before);
	});

	it('case 6: a row without an address or with a null one fails alone, saying no address was given; a tag that is an object fails its row, naming the field', async () => {
		const source: Row[] = [...SAMPLE, { ...SAMPLE[0], email: undefined }, { ...SAMPLE[0], email: null }, margaret({ email: 'grace.hopper@example.com', tags: [{ name: 'vip' }] })];
		const { first, firstWrites, secondWrites } = await twice(source);
		expect(firstWrites).toEqual(['PATCH jean.sammet@example.com', 'PATCH sophie.wilson@example.com', 'POST margaret.hamilton@example.com']);
		const failed = first.run.data.resultData.runData[SHAPE][0].data?.main[1] ?? [];
		expect(failed.map((item) => (item.json.error as IDataObject).message)).toEqual([
			'The "Email" field is empty: no email address given',
			'The "Email" field is empty: no email address given',
			'The "Tags" field must contain only text, but entry 1 is an object',
		]);
		expect(secondWrites).toEqual([]);
	});

	it('the guard lets a run unsubscribe up to the limit set on the node, and names how to raise it', async () => {
		// A direct run of Unsubscribe on 2 of the 4 subscribed: refused at the default, allowed at a count of 2.
		const unsubscribe = async (options: IDataObject) =>
			await runOnList({ operation: 'unsubscribe', options }, ['jean.sammet@example.com', 'bjarne.stroustrup@example.com']);
		bed.sandbox.clearRequests();
		const refused = await unsubscribe({});
		expect(refused.status).toBe('error');
		expect(refused.error?.message).toBe("This run would unsubscribe 2 of the list's 4 subscribed subscribers, more than the limit of 1 (10 % of them)");
		expect(refused.error?.description).toMatch(/^Nothing was unsubscribed\. A source that came back empty/);
		expect(refused.error?.description).toContain('raise "Most to Unsubscribe (%)" or set "Most to Unsubscribe (Count)" under Options');
		expect(takeWrites()).toEqual([]);
		expect((await unsubscribe({ unsubscribeLimitPercent: 50 })).status).toBe('success');
		expect(takeWrites()).toEqual(['PATCH bjarne.stroustrup@example.com', 'PATCH jean.sammet@example.com']);
	});

	it('the guard: a count set on the node replaces the share, an Update to "Unsubscribed" is guarded too, and a run reads the list once', async () => {
		const listPath = `/1.0/accounts/${accountId()}/lists/${customers()}`;
		const listReads = () => bed.sandbox.requests().filter((entry) => entry.method === 'GET' && entry.path === listPath).length;
		const three = ['jean.sammet@example.com', 'bjarne.stroustrup@example.com', 'sophie.wilson@example.com'];

		// A count of 2 wins over a share of 100 %: 3 are refused, naming the count, after one read of the list for the run.
		bed.sandbox.clearRequests();
		const refused = await runOnList({ operation: 'unsubscribe', options: { unsubscribeLimitCount: 2, unsubscribeLimitPercent: 100 } }, three);
		expect(refused.error?.message).toBe("This run would unsubscribe 3 of the list's 4 subscribed subscribers, more than the limit of 2");
		expect(listReads()).toBe(1);
		expect(takeWrites()).toEqual([]);

		// Update setting the status to Unsubscribed is held to the same limit; an Update to Subscribed is not.
		const update = (status: string) => ({ operation: 'update', updateFields: { status }, options: { unsubscribeLimitPercent: 50 } });
		const updateRefused = await runOnList(update('unsubscribed'), three);
		expect(updateRefused.error?.message).toBe("This run would unsubscribe 3 of the list's 4 subscribed subscribers, more than the limit of 2 (50 % of them)");
		expect(takeWrites()).toEqual([]);
		expect((await runOnList(update('subscribed'), three)).status).toBe('success');
		expect(listReads()).toBe(0);
		bed.sandbox.clearRequests();

		// A count that covers the run needs no read of the list: the run goes straight to its writes.
		expect((await runOnList({ operation: 'unsubscribe', options: { unsubscribeLimitCount: 3 } }, three)).status).toBe('success');
		expect(listReads()).toBe(0);
		expect(takeWrites()).toEqual(['PATCH bjarne.stroustrup@example.com', 'PATCH jean.sammet@example.com', 'PATCH sophie.wilson@example.com']);
	});

	it.each([
		['a list whose number is not a number', { name: 'customers', total_subscribed_subscribers: 'many' }],
		['no list at all', null],
	])('the guard refuses, naming what it expected, when AWeber answers %s', async (_case, body) => {
		const listPath = `/1.0/accounts/${accountId()}/lists/${customers()}`;
		bed.sandbox.faults.next(1, 'answer', { pathPrefix: listPath, method: 'GET', body });
		bed.sandbox.clearRequests();
		const result = await runOnList({ operation: 'unsubscribe', options: { unsubscribeLimitPercent: 100 } }, ['jean.sammet@example.com', 'bjarne.stroustrup@example.com']);
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('a list with its number of subscribed subscribers');
		expect(result.error?.description).toContain('While checking how many subscribers this run may unsubscribe');
		expect(takeWrites()).toEqual([]);
	});

	it("Shape Source for Comparison gives a contact exactly as Get Many's Shape for Comparison gives the same subscriber, status aside, with one read of the custom fields", async () => {
		bed.sandbox.clearRequests();
		const result = await sync(SAMPLE);
		const calls = bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/') && entry.path.endsWith('/custom_fields'));
		// The source's shape, Create and Update: one read each per run, whatever the number of rows.
		expect(calls).toHaveLength(3);
		const shaped = result.json(SHAPE).find((item) => item.email === 'ada.lovelace@example.com');
		const read = result.json(SYNC_NODES.read).find((item) => item.email === 'ada.lovelace@example.com');
		expect(read).toEqual({ ...shaped, status: 'subscribed' });
		expect(shaped).toEqual({ email: 'ada.lovelace@example.com', name: 'Ada Lovelace', tags: ['customer'], custom_fields: { Company: 'Analytical Engines Ltd', Plan: 'pro' } });
	});

});
