// The "Keep a list in sync" example (examples/keep-list-in-sync.json) through the harness against the sandbox:
// the list afterwards holds the source field by field, only differences are written, a refused contact fails alone.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { checkListAgainstSource, exampleSource, readList, runSync, SYNC_NODES, type SourceContact } from '../harness/listSync';

/** The example's sample source, against the seeded Customers list (Ada, Sophie, Jean, Bjarne, Mary). */
const SAMPLE = exampleSource();

describe('Keep a list in sync (the example workflow)', () => {
	const bed = useTestbed();
	const customers = () => bed.sandbox.seed.lists.customers;
	const accountId = () => bed.sandbox.seed.accountId;
	const storedList = async () => await readList(bed.sandbox.apiBaseUrl, bed.sandbox.issueToken().access_token, accountId(), customers());
	const sync = async (source: SourceContact[], options: { unsubscribe?: boolean; withoutUpdate?: boolean } = {}) =>
		await runSync(bed.harness, source, { credentialId: bed.credentialId, accountId: accountId(), listId: customers(), ...options });
	/** Writes AWeber received, as `METHOD email-or-id`. */
	const writes = () =>
		bed.sandbox
			.requests()
			.filter((entry) => entry.path.startsWith('/1.0/') && entry.method !== 'GET')
			.map((entry) => `${entry.method} ${(entry.body as { email?: string }).email ?? entry.query.subscriber_email ?? entry.path.split('/').pop()}`);

	it('leaves the list equal to the source, writing only the new and the changed contacts', async () => {
		const before = await storedList();
		bed.sandbox.clearRequests();
		const result = await sync(SAMPLE);

		expect(result.status).toBe('success');
		// Ada differs only in the case of her address and Mary is unchanged: nothing is written for them.
		expect(writes().sort()).toEqual(['PATCH jean.sammet@example.com', 'PATCH sophie.wilson@example.com', 'POST margaret.hamilton@example.com']);
		expect(checkListAgainstSource(await storedList(), SAMPLE, before, { unsubscribeRemoved: false })).toEqual({ lost: [], wrong: [] });
		// Jean's company was emptied and her tag taken off; Sophie's tag added; Bjarne (not in the source) left alone.
		const jean = (await storedList()).find((subscriber) => subscriber.email === 'jean.sammet@example.com');
		expect(jean).toMatchObject({ tags: [], custom_fields: { Company: null, Plan: 'free' } });
	});

	it('reads the list once (one page per 100 subscribers), then writes each difference in one call', async () => {
		const result = await sync(SAMPLE, { unsubscribe: true });
		expect(result.status).toBe('success');
		const lists = `/1.0/accounts/${accountId()}/lists/${customers()}`;
		const calls = bed.sandbox
			.requests()
			.filter((entry) => entry.path.startsWith('/1.0/'))
			.map((entry) => `${entry.method} ${entry.path.replace(lists, '')}${entry.query['ws.op'] ? ` ${entry.query['ws.op']}` : ''}`);
		// The source's shape, Create and the two Updates each read the custom field names once per run (unknown names are
		// refused); the unsubscribing Update has one item, always allowed, so its guard reads nothing.
		expect(calls.sort()).toEqual([
			'GET /custom_fields',
			'GET /custom_fields',
			'GET /custom_fields',
			'GET /custom_fields',
			'GET /subscribers',
			'PATCH /subscribers',
			'PATCH /subscribers',
			'PATCH /subscribers',
			'POST /subscribers',
		]);
	});

	it('gives the list Create or Update of every row gives, except where the source takes a tag or a value away', async () => {
		const comparable = (list: Awaited<ReturnType<typeof storedList>>) =>
			Object.fromEntries(list.map(({ email, name, status, tags, custom_fields }) => [email.toLowerCase(), { name, status, tags: [...tags].sort(), custom_fields }]));
		const perRow = await bed.harness.runNode(
			{
				type: 'aWeberSubscriber',
				credentialId: bed.credentialId,
				parameters: {
					operation: 'upsert',
					accountId: { __rl: true, mode: 'id', value: String(accountId()) },
					listId: { __rl: true, mode: 'id', value: String(customers()) },
					email: '={{ $json.email }}',
					output: 'summary',
					additionalFields: {
						name: "={{ [$json.firstName, $json.lastName].filter(Boolean).join(' ') }}",
						tags: '={{ $json.tags }}',
						customFields: { field: [{ name: 'Company', value: '={{ $json.company }}' }, { name: 'Plan', value: '={{ $json.plan }}' }] },
					},
				},
			},
			SAMPLE as unknown as IDataObject[],
		);
		expect(perRow.status).toBe('success');
		const afterEveryRow = comparable(await storedList());
		bed.sandbox.reset();
		expect((await sync(SAMPLE)).status).toBe('success');
		const afterSync = comparable(await storedList());

		// Jean's company was emptied and her tag "customer" taken off in the source: Create or Update appends tags and
		// leaves out empty values, so only the sync writes that. Everything else is the same, subscriber by subscriber.
		const jean = 'jean.sammet@example.com';
		expect(afterSync[jean]).toMatchObject({ tags: [], custom_fields: { Company: null } });
		expect(afterEveryRow[jean]).toMatchObject({ tags: ['customer'], custom_fields: { Company: 'Enigma Outfitters' } });
		expect({ ...afterSync, [jean]: undefined }).toEqual({ ...afterEveryRow, [jean]: undefined });
	});

	it('unsubscribes the contacts no longer in the source when its Unsubscribe node is switched on', async () => {
		const before = await storedList();
		const result = await sync(SAMPLE, { unsubscribe: true });
		expect(result.status).toBe('success');
		expect(checkListAgainstSource(await storedList(), SAMPLE, before, { unsubscribeRemoved: true })).toEqual({ lost: [], wrong: [] });
		expect(result.json(SYNC_NODES.unsubscribe).map((item) => [item.email, item.status])).toEqual([['bjarne.stroustrup@example.com', 'unsubscribed']]);
	});

	it('fails a contact AWeber refuses in its own item; the other contacts are written', async () => {
		const before = await storedList();
		const source = [...SAMPLE, { email: 'hedy.lamarr@example.com', firstName: 'Hedy', lastName: 'Lamarr', company: 'Spread Spectrum', plan: 'pro', tags: [] }];
		bed.sandbox.setAccountStanding('good', { refusedEmails: ['margaret.hamilton@example.com'] });
		const result = await sync(source);

		expect(result.status).toBe('success');
		const added = result.json(SYNC_NODES.create);
		expect(added.map((item) => item.email ?? (item.error as string))).toEqual([
			expect.stringContaining('cannot be accepted'),
			'hedy.lamarr@example.com',
		]);
		expect(checkListAgainstSource(await storedList(), source, before, { unsubscribeRemoved: false })).toEqual({
			lost: ['margaret.hamilton@example.com'],
			wrong: [],
		});
	});

	it('the check catches a changed contact that was not written', async () => {
		const before = await storedList();
		const source = SAMPLE.filter((contact) => contact.email !== 'jean.sammet@example.com' && contact.email !== 'margaret.hamilton@example.com');
		await sync(source, { withoutUpdate: true });
		expect(checkListAgainstSource(await storedList(), source, before, { unsubscribeRemoved: false })).toEqual({
			lost: [],
			wrong: [
				{ email: 'sophie.wilson@example.com', field: 'custom_fields.Plan', expected: 'enterprise', stored: 'team' },
				{ email: 'sophie.wilson@example.com', field: 'tags', expected: ['customer', 'vip'], stored: ['customer'] },
			],
		});
	});
});

describe('Update with "Replace All Custom Fields" (what the sync writes with)', () => {
	const bed = useTestbed();
	const scope = () => ({
		accountId: { __rl: true, mode: 'id', value: String(bed.sandbox.seed.accountId) },
		listId: { __rl: true, mode: 'id', value: String(bed.sandbox.seed.lists.newsletter) },
	});
	const update = async (email: string, customFields: Array<{ name: string; value: string }>, options: IDataObject = {}) =>
		await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: {
				operation: 'update',
				...scope(),
				subscriberId: { __rl: true, mode: 'email', value: email },
				updateFields: { name: 'Grace B. Hopper', customFields: { field: customFields } },
				options: { replaceAllCustomFields: true, ...options },
			},
		});
	const calls = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/')).map((entry) => `${entry.method} ${entry.path.split('/').pop()}`);

	it('writes in one PATCH without reading the subscriber: the fields given are set, the empty ones emptied', async () => {
		const result = await update('grace.hopper@example.com', [
			{ name: 'Company', value: 'Navy' },
			{ name: 'plan', value: '' },
			{ name: 'Birthday', value: '' },
		]);
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ name: 'Grace B. Hopper', custom_fields: { Company: 'Navy', Plan: null, Birthday: null } })]);
		// The list's field names once per run (unknown names are refused), then the PATCH by email.
		expect(calls()).toEqual(['GET custom_fields', 'PATCH subscribers']);
	});

	it('refuses an update that leaves out a field of the list, before writing anything (it would be emptied)', async () => {
		const result = await update('grace.hopper@example.com', [{ name: 'Company', value: 'Navy' }]);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The "Custom Fields" field leaves out the list\'s "Plan", "Birthday"');
		expect(result.error?.description).toContain(
			'With "Replace All Custom Fields" on, every custom field of the list must be given (an empty value empties it): a field left out would be emptied.',
		);
		expect(calls()).toEqual(['GET custom_fields']);
	});

	it('under "Strict Custom Fields", counts a field as given only by its exact name', async () => {
		const exact = await update('grace.hopper@example.com', [
			{ name: 'Company', value: 'Navy' },
			{ name: 'Plan', value: '' },
			{ name: 'Birthday', value: '' },
		], { strictCustomFields: true });
		expect(exact.status).toBe('success');
		expect(exact.items).toEqual([expect.objectContaining({ custom_fields: { Company: 'Navy', Plan: null, Birthday: null } })]);
		bed.sandbox.clearRequests();

		const leftOut = await update('grace.hopper@example.com', [
			{ name: 'Company', value: 'Navy' },
			{ name: 'Plan', value: 'pro' },
		], { strictCustomFields: true });
		expect(leftOut.status).toBe('error');
		expect(leftOut.error?.message).toBe('The "Custom Fields" field leaves out the list\'s "Birthday"');
		expect(calls()).toEqual(['GET custom_fields']);
	});

	it('refuses a name the list does not have before writing anything', async () => {
		const result = await update('grace.hopper@example.com', [{ name: 'Compnay', value: 'Navy' }]);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The custom field "Compnay" does not exist on this list');
		expect(calls()).toEqual(['GET custom_fields']);
	});
});

describe('Get Many with "Shape for Comparison" (what Compare Datasets sees)', () => {
	const bed = useTestbed();
	const subscribersPath = () => `/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${bed.sandbox.seed.lists.newsletter}/subscribers`;
	const getMany = async (limit: number) =>
		await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: {
				operation: 'getAll',
				accountId: { __rl: true, mode: 'id', value: String(bed.sandbox.seed.accountId) },
				listId: { __rl: true, mode: 'id', value: String(bed.sandbox.seed.lists.newsletter) },
				returnAll: false,
				limit,
				shapeForComparison: true,
			},
		});

	it('gives a custom field AWeber holds empty (null) as "", as a source\'s empty value is', async () => {
		const result = await getMany(1);
		expect(result.status).toBe('success');
		expect(result.items).toEqual([
			{ email: 'ada.lovelace@example.com', name: 'Ada Lovelace', tags: expect.any(Array), custom_fields: expect.objectContaining({ Birthday: '' }), status: 'subscribed' },
		]);
	});

	it('gives an answer\'s address, name, tags or field values that are not text as empty (a number as its text, as the writes send it), and an address trimmed, in lower case', async () => {
		const subscriber = { id: 1, self_link: `${bed.sandbox.apiBaseUrl}${subscribersPath()}/1`, email: 7, name: null, custom_fields: { Company: null, Plan: 3, Birthday: '1960-01-10' } };
		bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: subscribersPath(), body: { start: 0, total_size: 4, entries: [subscriber, { ...subscriber, tags: 'vip', custom_fields: 'none' }, { ...subscriber, tags: ['b', 7, 'a'], custom_fields: null }, { ...subscriber, email: ' Ada.Lovelace@Example.com ', name: 'Ada' }] } });
		const result = await getMany(4);
		expect(result.status).toBe('success');
		expect(result.items).toEqual([
			{ email: '', name: '', tags: [], custom_fields: { Company: '', Plan: '3', Birthday: '1960-01-10' }, status: '' },
			{ email: '', name: '', tags: [], custom_fields: {}, status: '' },
			{ email: '', name: '', tags: ['a', 'b'], custom_fields: {}, status: '' },
			{ email: 'ada.lovelace@example.com', name: 'Ada', tags: [], custom_fields: { Company: '', Plan: '3', Birthday: '1960-01-10' }, status: '' },
		]);
	});
});
