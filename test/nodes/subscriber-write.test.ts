import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, listPath, newsletterScope, run } from './email-nodes.helpers';

const byEmail = (email: string) => ({ __rl: true, mode: 'email', value: email });

describe('AWeber Subscriber node: adding and changing subscribers', () => {
	const bed = useTestbed();

	const subscribersPath = (listId?: number) => `${listPath(bed, listId)}/subscribers`;
	const subscriber = (parameters: IDataObject, options: { items?: IDataObject[]; continueOnFail?: boolean } = {}) =>
		run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters }, options);
	/** Grace Hopper, on Newsletter: tags trial + customer; Company, Plan and Birthday all set. */
	const grace = () => bed.sandbox.seed.subscribers.subscribed + 1;
	const graceFields = { Company: 'Cobol Works', Plan: 'pro', Birthday: '1961-02-11' };
	const readGrace = async () => (await subscriber({ operation: 'get', subscriberId: byId(grace()), simplify: false })).items[0];

	describe('Create', () => {
		it('adds a subscriber with every field, tags and custom fields, and outputs the new subscriber', async () => {
			const result = await subscriber({
				operation: 'create',
				email: 'new.person@example.com',
				simplify: false,
				additionalFields: {
					name: 'New Person',
					adTracking: 'Spring-Promo',
					miscNotes: 'From the fair',
					ipAddress: '204.194.222.28',
					lastFollowupMessageNumberSent: 1001,
					tags: ['vip', 'fair-2025'],
					customFields: { field: [{ name: 'Company', value: 'Acme' }, { name: 'plan', value: 'pro' }] },
				},
			});
			expect(result.status).toBe('success');
			expect(result.items).toEqual([
				expect.objectContaining({
					email: 'new.person@example.com',
					name: 'New Person',
					status: 'subscribed',
					ad_tracking: 'spring-promo',
					misc_notes: 'From the fair',
					ip_address: '204.194.222.28',
					last_followup_message_number_sent: 1001,
					tags: ['vip', 'fair-2025'],
					custom_fields: { Company: 'Acme', Plan: 'pro', Birthday: null },
				}),
			]);
			// The list's custom fields are read first (once per run): an unknown name is refused before the add.
			const [fields, post, read] = apiCalls(bed);
			expect(fields).toMatchObject({ method: 'GET', path: `${listPath(bed)}/custom_fields` });
			expect(post).toMatchObject({
				method: 'POST',
				path: subscribersPath(),
				status: 201,
				contentType: expect.stringMatching(/^application\/json/),
				body: {
					email: 'new.person@example.com',
					name: 'New Person',
					ad_tracking: 'Spring-Promo',
					misc_notes: 'From the fair',
					ip_address: '204.194.222.28',
					last_followup_message_number_sent: 1001,
					tags: ['vip', 'fair-2025'],
					custom_fields: { Company: 'Acme', plan: 'pro' },
				},
			});
			expect(read).toMatchObject({ method: 'GET', path: `${subscribersPath()}/${result.items[0].id}` });
			expect(apiCalls(bed)).toHaveLength(3);
		});

		it('takes new tags from an expression, as an array or comma-separated text; no tags from an empty one', async () => {
			const result = await subscriber(
				{ operation: 'create', email: '={{ $json.email }}', additionalFields: { tags: '={{ $json.tags }}', name: '={{ $json.name }}' } },
				{
					items: [
						{ email: 'one@example.com', tags: 'alpha, beta,,alpha' },
						{ email: 'two@example.com', tags: ['gamma'] },
						{ email: 'three@example.com', tags: null },
						{ email: 'four@example.com', tags: '' },
					],
				},
			);
			expect(result.status).toBe('success');
			expect(result.items.map((item) => item.tags)).toEqual([['alpha', 'beta'], ['gamma'], [], []]);
			// Sent trimmed, once each, without empty entries; no tags sent for an empty value.
			const sentTags = Object.fromEntries(
				apiCalls(bed)
					.filter((call) => call.method === 'POST')
					.map((call) => [(call.body as { email: string }).email, (call.body as { tags?: unknown }).tags]),
			);
			expect(sentTags).toEqual({ 'one@example.com': ['alpha', 'beta'], 'two@example.com': ['gamma'], 'three@example.com': undefined, 'four@example.com': undefined });
			// A name missing from the input is left out rather than sent as "undefined".
			for (const post of apiCalls(bed).filter((call) => call.method === 'POST')) expect(post.body).not.toHaveProperty('name');
		});

		it('explains a duplicate address and suggests Create or Update', async () => {
			const result = await subscriber({ operation: 'create', email: 'ada.lovelace@example.com' });
			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(/already subscribed/);
			expect(result.error?.description).toMatch(/Create or Update operation, or turn on the "Update Existing" option/);
		});

		it('updates the existing subscriber instead when "Update Existing" is on', async () => {
			const result = await subscriber({
				operation: 'create',
				email: 'ada.lovelace@example.com',
				additionalFields: { name: 'Augusta Ada King' },
				options: { updateExisting: true },
			});
			expect(result.items).toEqual([expect.objectContaining({ id: bed.sandbox.seed.subscribers.subscribed, name: 'Augusta Ada King' })]);
			expect(apiCalls(bed)[0].body).toMatchObject({ update_existing: 'true' });
		});

		it('refuses an unknown custom field under "Strict Custom Fields" before adding anyone', async () => {
			const result = await subscriber({
				operation: 'create',
				email: 'strict@example.com',
				additionalFields: { customFields: { field: [{ name: 'company', value: 'Acme' }] } },
				options: { strictCustomFields: true },
			});
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe('The custom field "company" does not exist on this list');
			expect(apiCalls(bed).map((call) => `${call.method} ${call.path}`)).toEqual([`GET ${listPath(bed)}/custom_fields`]);
		});

		it('sends strict_custom_fields when the names match exactly, reading the list\'s fields once per run', async () => {
			const result = await subscriber(
				{
					operation: 'create',
					email: '={{ $json.email }}',
					additionalFields: { customFields: { field: [{ name: 'Company', value: 'Acme' }] } },
					options: { strictCustomFields: true },
				},
				{ items: [{ email: 'strict1@example.com' }, { email: 'strict2@example.com' }, { email: 'strict3@example.com' }] },
			);
			expect(result.items).toHaveLength(3);
			for (const item of result.items) expect(item).toMatchObject({ custom_fields: { Company: 'Acme' } });
			const calls = apiCalls(bed);
			expect(calls.filter((call) => call.path.endsWith('/custom_fields'))).toHaveLength(1);
			const posts = calls.filter((call) => call.method === 'POST');
			expect(posts).toHaveLength(3);
			for (const post of posts) expect(post.body).toMatchObject({ strict_custom_fields: 'true', custom_fields: { Company: 'Acme' } });
		});

		it.each([
			[{ email: 'not-an-email' }, 'The "Email" field must be an email address, not "not-an-email"'],
			[{ email: '' }, 'The "Email" field is empty: no email address given'],
			[{}, 'The "Email" field is empty: no email address given'],
			[{ email: { address: 'ok@example.com' } }, 'The "Email" field must be text, not an object'],
			[{ email: `${'a'.repeat(39)}@example.com` }, 'The "Email" field is longer than AWeber\'s limit of 50 characters'],
			[{ email: 'ok@example.com', tags: [1, 2] }, 'The "Tags" field must contain only text, but entry 1 is a number'],
			[{ email: 'ok@example.com', tags: ['vip', null] }, 'The "Tags" field must contain only text, but entry 2 is null'],
			[{ email: 'ok@example.com', tags: { vip: true } }, 'The "Tags" field must be a list of tags or a comma-separated text, not an object'],
			[{ email: 'ok@example.com', ip: '999.1.1.1' }, 'The "IP Address" field must be an IPv4 or IPv6 address, not "999.1.1.1"'],
			[{ email: 'ok@example.com', ip: '  ' }, 'The "IP Address" field is empty'],
		])('refuses bad input %j before any request, naming the field', async (input, message) => {
			const result = await subscriber(
				{
					operation: 'create',
					email: '={{ $json.email }}',
					additionalFields: { tags: '={{ $json.tags }}', ipAddress: '={{ $json.ip ?? "" }}' },
				},
				{ items: [input] },
			);
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(message);
			expect(apiCalls(bed)).toEqual([]);
		});

		it('accepts an address of exactly AWeber\'s 50 characters', async () => {
			const email = `${'a'.repeat(38)}@example.com`;
			const result = await subscriber({ operation: 'create', email });
			expect(result.status).toBe('success');
			expect(result.items).toEqual([expect.objectContaining({ email })]);
			// No custom fields given: the list's fields are not read.
			expect(apiCalls(bed).map((call) => call.method)).toEqual(['POST', 'GET']);
			expect(apiCalls(bed).filter((call) => call.path.endsWith('/custom_fields'))).toEqual([]);
		});
	});

	describe('Create or Update (upsert)', () => {
		it('adds a new address in two calls', async () => {
			const result = await subscriber({
				operation: 'upsert',
				email: 'fresh@example.com',
				additionalFields: { name: 'Fresh Face', tags: ['webinar'] },
			});
			expect(result.items).toEqual([expect.objectContaining({ email: 'fresh@example.com', name: 'Fresh Face', tags: ['webinar'] })]);
			expect(apiCalls(bed).map((call) => [call.method, call.status])).toEqual([
				['POST', 201],
				['GET', 200],
			]);
			expect(apiCalls(bed)[0].body).toMatchObject({ email: 'fresh@example.com', update_existing: 'true' });
		});

		it('updates an existing address in two calls (three with custom fields, read once per run): tags are added and untouched custom fields kept', async () => {
			const result = await subscriber({
				operation: 'upsert',
				email: 'grace.hopper@example.com',
				additionalFields: { name: 'Rear Admiral Hopper', tags: ['upsell'], customFields: { field: [{ name: 'Plan', value: 'team' }] } },
			});
			expect(result.items).toEqual([
				expect.objectContaining({
					id: grace(),
					name: 'Rear Admiral Hopper',
					tags: ['trial', 'customer', 'upsell'],
					custom_fields: { ...graceFields, Plan: 'team' },
				}),
			]);
			expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET', 'POST', 'GET']);
		});
	});

	describe('Update', () => {
		it('changes one custom field and keeps the others, in two calls', async () => {
			const result = await subscriber({
				operation: 'update',
				subscriberId: byId(grace()),
				updateFields: { customFields: { field: [{ name: 'plan', value: 'team' }] } },
			});
			expect(result.status).toBe('success');
			expect(result.items).toEqual([expect.objectContaining({ id: grace(), custom_fields: { ...graceFields, Plan: 'team' } })]);
			const [read, patch] = apiCalls(bed);
			expect(read).toMatchObject({ method: 'GET', path: `${subscribersPath()}/${grace()}` });
			expect(patch).toMatchObject({
				method: 'PATCH',
				path: `${subscribersPath()}/${grace()}`,
				status: 209,
				contentType: expect.stringMatching(/^application\/json/),
				body: { custom_fields: { ...graceFields, Plan: 'team' } },
			});
			expect(apiCalls(bed)).toHaveLength(2);
			expect((await readGrace()).custom_fields).toEqual({ ...graceFields, Plan: 'team' });
		});

		it('adds and removes tags, chosen by email, with AWeber\'s subscriber_email form', async () => {
			const result = await subscriber({
				operation: 'update',
				subscriberId: byEmail('grace.hopper@example.com'),
				updateFields: { addTags: ['upsell', 'webinar'], removeTags: ['trial'], name: 'Grace B. Hopper' },
			});
			expect(result.items).toEqual([
				expect.objectContaining({ name: 'Grace B. Hopper', tags: ['customer', 'upsell', 'webinar'], custom_fields: graceFields }),
			]);
			const [find, patch] = apiCalls(bed);
			expect(find).toMatchObject({ method: 'GET', path: subscribersPath(), query: { 'ws.op': 'find', email: 'grace.hopper@example.com' } });
			expect(patch).toMatchObject({
				method: 'PATCH',
				path: subscribersPath(),
				query: { subscriber_email: 'grace.hopper@example.com' },
				body: { name: 'Grace B. Hopper', tags: { add: ['upsell', 'webinar'], remove: ['trial'] } },
			});
		});

		it('clears a custom field given an empty value, keeping the rest', async () => {
			const result = await subscriber({
				operation: 'update',
				subscriberId: byId(grace()),
				updateFields: { customFields: { field: [{ name: 'Birthday', value: '' }] } },
			});
			expect(result.items[0].custom_fields).toEqual({ ...graceFields, Birthday: null });
		});

		it('changes the address and status', async () => {
			const result = await subscriber({
				operation: 'update',
				subscriberId: byId(grace()),
				updateFields: { email: 'grace@navy.example', status: 'unsubscribed', adTracking: 'moved', miscNotes: '' },
				simplify: false,
			});
			expect(result.items[0]).toMatchObject({ email: 'grace@navy.example', status: 'unsubscribed', ad_tracking: 'moved', misc_notes: '' });
		});

		it('refuses, under "Strict Custom Fields", a name that differs in case, without writing', async () => {
			const result = await subscriber({
				operation: 'update',
				subscriberId: byId(grace()),
				updateFields: { customFields: { field: [{ name: 'plan', value: 'team' }] } },
				options: { strictCustomFields: true },
			});
			expect(result.error?.message).toBe('The custom field "plan" does not exist on this list');
			expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
		});

		it('refuses a malformed new address before any request', async () => {
			const result = await subscriber(
				{ operation: 'update', subscriberId: byId(grace()), updateFields: { email: '={{ $json.email }}' } },
				{ items: [{ email: 'grace at navy' }] },
			);
			expect(result.error?.message).toBe('The "Email" field must be an email address, not "grace at navy"');
			expect(apiCalls(bed)).toEqual([]);
		});
	});

	describe('Unsubscribe', () => {
		it('unsubscribes, keeping the custom fields', async () => {
			const result = await subscriber({ operation: 'unsubscribe', subscriberId: byId(grace()), simplify: false });
			expect(result.items).toEqual([
				expect.objectContaining({ status: 'unsubscribed', unsubscribe_method: 'api: unsubscribe', custom_fields: graceFields }),
			]);
			expect(apiCalls(bed)[1]).toMatchObject({ method: 'PATCH', body: { status: 'unsubscribed', custom_fields: graceFields } });
		});

		it('unsubscribes by email', async () => {
			const result = await subscriber({ operation: 'unsubscribe', subscriberId: byEmail('grace.hopper@example.com') });
			expect(result.items[0]).toMatchObject({ email: 'grace.hopper@example.com', status: 'unsubscribed' });
			expect(apiCalls(bed)[1]).toMatchObject({ method: 'PATCH', query: { subscriber_email: 'grace.hopper@example.com' } });
		});
	});

	describe('Delete', () => {
		it('deletes by ID', async () => {
			const result = await subscriber({ operation: 'delete', subscriberId: byId(grace()) });
			expect(result.items).toEqual([{ deleted: true }]);
			expect(apiCalls(bed)).toEqual([expect.objectContaining({ method: 'DELETE', path: `${subscribersPath()}/${grace()}` })]);
			expect((await subscriber({ operation: 'get', subscriberId: byId(grace()) })).status).toBe('error');
		});

		it('deletes by email with one call', async () => {
			const result = await subscriber({ operation: 'delete', subscriberId: byEmail('grace.hopper@example.com') });
			expect(result.items).toEqual([{ deleted: true }]);
			expect(apiCalls(bed)).toEqual([
				expect.objectContaining({ method: 'DELETE', path: subscribersPath(), query: { subscriber_email: 'grace.hopper@example.com' }, status: 200 }),
			]);
		});

		it('explains that an unconfirmed subscriber cannot be deleted', async () => {
			const result = await subscriber({ operation: 'delete', subscriberId: byId(bed.sandbox.seed.subscribers.unconfirmed) });
			expect(result.status).toBe('error');
			expect(result.error?.description).toMatch(/HTTP status: 405/);
			expect(result.error?.description).toMatch(/has not confirmed their address yet/);
		});
	});

	describe('Move', () => {
		const destination = (listId: number) => byId(listId);

		it('moves to another list with a form body naming the list by its link, and outputs the moved subscriber', async () => {
			const customers = bed.sandbox.seed.lists.customers;
			const result = await subscriber({
				operation: 'move',
				subscriberId: byId(grace()),
				destinationListId: destination(customers),
				options: { lastFollowupMessageNumberSent: 5, enforceCustomFieldMapping: false },
				simplify: false,
			});
			expect(result.status).toBe('success');
			expect(result.items).toEqual([
				expect.objectContaining({
					email: 'grace.hopper@example.com',
					status: 'subscribed',
					last_followup_message_number_sent: 5,
					custom_fields: { Company: 'Cobol Works', Plan: 'pro' },
					self_link: expect.stringContaining(`/lists/${customers}/subscribers/`),
				}),
			]);
			const [move, read] = apiCalls(bed);
			expect(move).toMatchObject({
				method: 'POST',
				path: `${subscribersPath()}/${grace()}`,
				status: 201,
				contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/),
				body: {
					'ws.op': 'move',
					list_link: `${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${customers}`,
					last_followup_message_number_sent: '5',
					enforce_custom_field_mapping: 'false',
				},
			});
			expect(read).toMatchObject({ method: 'GET', path: expect.stringContaining(`/lists/${customers}/subscribers/`) });
			expect(await readGrace()).toMatchObject({ status: 'unsubscribed', unsubscribe_method: 'api: move' });
		});

		it('moves a subscriber chosen by email', async () => {
			const result = await subscriber({
				operation: 'move',
				subscriberId: byEmail('grace.hopper@example.com'),
				destinationListId: destination(bed.sandbox.seed.lists.bulk),
			});
			expect(result.items[0]).toMatchObject({ email: 'grace.hopper@example.com', self_link: expect.stringContaining('/lists/2003/') });
			expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET', 'POST', 'GET']);
		});

		it('refuses a move that would drop custom fields when the mapping is enforced', async () => {
			const result = await subscriber({
				operation: 'move',
				subscriberId: byId(grace()),
				destinationListId: destination(bed.sandbox.seed.lists.bulk),
				options: { enforceCustomFieldMapping: true },
			});
			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(/does not exist on the destination list/);
		});

		it('explains that the subscriber is already on the destination list', async () => {
			const result = await subscriber({
				operation: 'move',
				subscriberId: byId(bed.sandbox.seed.subscribers.subscribed),
				destinationListId: destination(bed.sandbox.seed.lists.customers),
			});
			expect(result.error?.message).toBe('Subscriber already belongs to this list.');
			expect(result.error?.description).toMatch(/already on the destination list/);
		});

		it('explains that an unconfirmed subscriber cannot be moved', async () => {
			const result = await subscriber({
				operation: 'move',
				subscriberId: byId(bed.sandbox.seed.subscribers.unconfirmed),
				destinationListId: destination(bed.sandbox.seed.lists.customers),
			});
			expect(result.error?.description).toMatch(/has not confirmed their address yet/);
		});

		it('refuses the list the subscriber is on as destination, before any request', async () => {
			const result = await subscriber({
				operation: 'move',
				subscriberId: byId(grace()),
				destinationListId: destination(bed.sandbox.seed.lists.newsletter),
			});
			expect(result.error?.message).toBe('The "Destination List" field is the list the subscriber is on');
			expect(apiCalls(bed)).toEqual([]);
		});
	});

	describe('Continue On Fail', () => {
		it('gives the failing items their error and lets the others through', async () => {
			const result = await subscriber(
				{ operation: 'create', email: '={{ $json.email }}', additionalFields: { name: '={{ $json.name }}' } },
				{
					continueOnFail: true,
					items: [
						{ email: 'first@example.com', name: 'First' },
						{ email: 'broken address', name: 'Broken' },
						{ email: 'ada.lovelace@example.com', name: 'Duplicate' },
						{ email: 'last@example.com', name: 'Last' },
					],
				},
			);
			expect(result.status).toBe('success');
			const output = result.output('Node Under Test');
			expect(output).toHaveLength(4);
			expect(output[0].json).toMatchObject({ email: 'first@example.com', name: 'First' });
			expect(output[1].error?.message).toBe('The "Email" field must be an email address, not "broken address"');
			expect(output[2].error?.message).toMatch(/already subscribed/);
			expect(output[3].json).toMatchObject({ email: 'last@example.com', name: 'Last' });
			const posts = apiCalls(bed).filter((call) => call.method === 'POST');
			expect(posts.map((call) => (call.body as IDataObject).email)).toEqual(
				expect.arrayContaining(['first@example.com', 'ada.lovelace@example.com', 'last@example.com']),
			);
			expect(posts).toHaveLength(3);
		});
	});
});
