// Every AWeber node runs inside a real n8n against the sandbox: at least one operation each, and every write; and the
// "Keep a list in sync" example as `npm start` imports it.
import { readFileSync } from 'node:fs';

import { checkListAgainstSource, exampleSource, readList, SYNC_EXAMPLE_FILE, SYNC_NODES } from '../harness/listSync';
import { PURCHASE_FIELDS } from '../nodes/email-nodes.helpers';
import type { RequestLogEntry } from '../sandbox';
import {
	aweberNode,
	aweberWorkflow,
	byId,
	importWorkflow,
	itemsWorkflow,
	nodeItems,
	runWorkflow,
	useSandboxN8nAndCredential,
	type AweberStep,
	type ExecutionResult,
	type WorkflowJson,
} from './lib';

// Pacing is covered by the unit tests; here it would only slow the runs down.
const UNLIMITED = { requestsPerWindow: 1_000_000, windowSeconds: 60, lockoutSeconds: 60 };

describe('AWeber nodes in n8n, against the sandbox', () => {
	const env = useSandboxN8nAndCredential({ sandbox: { rateLimit: UNLIMITED }, credential: { data: { rateLimitRequests: 1_000_000 } } });

	const account = () => ({ accountId: byId(env.sandbox.seed.accountId) });
	const onList = (listId = env.sandbox.seed.lists.newsletter) => ({ ...account(), listId: byId(listId) });
	const listPath = (listId = env.sandbox.seed.lists.newsletter) => `/1.0/accounts/${env.sandbox.seed.accountId}/lists/${listId}`;
	/** Requests that reached AWeber's resource API, as `METHOD path status`. */
	const apiCalls = () =>
		env.sandbox
			.requests()
			.filter((entry) => entry.path.startsWith('/1.0/'))
			.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
	const firstCall = (method: string, path: string): RequestLogEntry | undefined =>
		env.sandbox.requests().find((entry) => entry.method === method && entry.path === path);
	/** A resource locator whose id comes from an earlier node's output. */
	const idFrom = (nodeName: string, field = 'id') => byId(`={{ $('${nodeName}').first().json.${field} }}`);

	async function run(name: string, steps: AweberStep[]): Promise<ExecutionResult> {
		const id = await importWorkflow(env.n8n, aweberWorkflow(name, env.credentialId, steps));
		const result = await runWorkflow(env.n8n, id);
		if (result.status !== 'success') throw new Error(`"${name}" ended ${result.status}: ${JSON.stringify(result.error)}`);
		return result;
	}

	it('reads with every node: account, integrations, lists, tags, custom fields, subscribers, broadcasts, campaigns, segments, web forms, landing pages', async () => {
		const { seed } = env.sandbox;
		const result = await run('Read everything', [
			{ name: 'Account', node: 'aWeberAccount', parameters: { operation: 'get', ...account() } },
			{ name: 'Integrations', node: 'aWeberIntegration', parameters: { operation: 'getAll', ...account(), returnAll: true } },
			{ name: 'List', node: 'aWeberList', parameters: { operation: 'get', ...onList() } },
			{ name: 'Tags', node: 'aWeberList', parameters: { operation: 'getTags', ...onList() } },
			{ name: 'Custom Fields', node: 'aWeberCustomField', parameters: { operation: 'getAll', ...onList(), returnAll: true } },
			{ name: 'Subscriber', node: 'aWeberSubscriber', parameters: { operation: 'get', ...onList(), subscriberId: byId(seed.subscribers.subscribed) } },
			{ name: 'Sent Broadcasts', node: 'aWeberBroadcast', parameters: { operation: 'getAll', ...onList(), status: 'sent', returnAll: true } },
			{ name: 'Campaigns', node: 'aWeberCampaign', parameters: { resource: 'campaign', operation: 'getAll', ...onList(), returnAll: true } },
			{ name: 'Segments', node: 'aWeberSegment', parameters: { operation: 'getAll', ...onList(), returnAll: true } },
			{ name: 'Web Forms', node: 'aWeberWebform', parameters: { resource: 'webForm', operation: 'getAll', ...onList(), returnAll: true } },
			{ name: 'Landing Pages', node: 'aWeberLandingPage', parameters: { operation: 'getAll', ...onList(), returnAll: true } },
		]);

		expect(nodeItems(result, 'Account')).toEqual([expect.objectContaining({ id: seed.accountId, company: seed.company })]);
		expect(nodeItems(result, 'Integrations').map((item) => item.id)).toEqual(
			expect.arrayContaining([seed.integrations.facebook, seed.integrations.twitter, seed.integrations.paypal]),
		);
		expect(nodeItems(result, 'List')).toEqual([expect.objectContaining({ id: seed.lists.newsletter, name: 'Newsletter' })]);
		expect(nodeItems(result, 'Tags').length).toBeGreaterThan(0);
		expect(nodeItems(result, 'Custom Fields').map((item) => item.name)).toEqual(['Company', 'Plan', 'Birthday']);
		expect(nodeItems(result, 'Subscriber')).toEqual([
			expect.objectContaining({ id: seed.subscribers.subscribed, status: 'subscribed', email: expect.any(String) }),
		]);
		expect(nodeItems(result, 'Sent Broadcasts').map((item) => item.broadcast_id)).toEqual(
			expect.arrayContaining([seed.broadcasts.sent]),
		);
		// Campaign path ids carry a type letter ('b5001'); the entries' ids are the numbers.
		const campaignNumber = (pathId: string) => Number(pathId.slice(1));
		expect(nodeItems(result, 'Campaigns').map((item) => item.id)).toEqual(
			expect.arrayContaining([campaignNumber(seed.campaigns.broadcast), campaignNumber(seed.campaigns.followUp)]),
		);
		expect(nodeItems(result, 'Segments').map((item) => item.id)).toEqual(expect.arrayContaining([seed.segments.active]));
		expect(nodeItems(result, 'Web Forms').map((item) => item.id)).toEqual(expect.arrayContaining([seed.webForms.newsletter]));
		expect(nodeItems(result, 'Landing Pages').length).toBeGreaterThan(0);
		// Reads only: nothing was written.
		expect(env.sandbox.requests().filter((entry) => entry.method !== 'GET')).toEqual([]);
		expect(apiCalls().every((line) => line.endsWith(' 200'))).toBe(true);
	});

	it('runs the AWeber Polling Trigger manually: it fetches the newest event as sample data', async () => {
		const trigger = aweberNode(
			{
				name: 'New Subscriber',
				node: 'aWeberListTrigger',
				parameters: { event: 'subscriberAdded', ...onList(), pollTimes: { item: [{ mode: 'everyMinute' }] } },
				executeOnce: false,
			},
			env.credentialId,
		);
		const id = await importWorkflow(env.n8n, { name: 'Poll', nodes: [trigger], connections: {} });
		const result = await runWorkflow(env.n8n, id, { triggerName: 'New Subscriber' });
		expect(result.status).toBe('success');
		expect(nodeItems(result, 'New Subscriber')).toEqual([expect.objectContaining({ email: expect.any(String), subscribed_at: expect.any(String) })]);
		expect(env.sandbox.requests()[0]).toMatchObject({
			method: 'GET',
			path: `${listPath()}/subscribers`,
			query: expect.objectContaining({ 'ws.op': 'find', sort_key: 'subscribed_at', sort_order: 'desc' }),
		});
	});

	it("runs the Polling Trigger's Link Clicked manually: the newest click of the newest broadcast in the window, with its URL", async () => {
		// The seeded broadcasts were sent long before the sandbox's now: a window of many days takes them in.
		const trigger = aweberNode(
			{
				name: 'Link Clicked',
				node: 'aWeberListTrigger',
				parameters: { event: 'linkClicked', ...onList(), windowDays: 100_000, pollTimes: { item: [{ mode: 'everyMinute' }] } },
				executeOnce: false,
			},
			env.credentialId,
		);
		const id = await importWorkflow(env.n8n, { name: 'Poll clicks', nodes: [trigger], connections: {} });
		const result = await runWorkflow(env.n8n, id, { triggerName: 'Link Clicked' });
		expect({ status: result.status, error: result.error }).toEqual({ status: 'success', error: undefined });
		expect(nodeItems(result, 'Link Clicked')).toEqual([
			expect.objectContaining({ event: 'linkClicked', broadcast_id: env.sandbox.seed.broadcasts.sent, url: expect.stringMatching(/^https:/), email: expect.any(String) }),
		]);
		expect(env.sandbox.requests().map((entry) => `${entry.path}?${new URLSearchParams(entry.query as Record<string, string>).get('detailed') ?? ''}`)).toContain(
			`${listPath()}/broadcasts/${env.sandbox.seed.broadcasts.sent}/clicks?true`,
		);
	});

	it('writes subscribers: create, update, tags, upsert, purchase, move, unsubscribe, delete', async () => {
		const { seed } = env.sandbox;
		const customers = seed.lists.customers;
		const result = await run('Subscriber writes', [
			{
				name: 'Create',
				node: 'aWeberSubscriber',
				parameters: {
					operation: 'create',
					...onList(),
					email: 'e2e.person@example.com',
					additionalFields: { name: 'E2E Person', tags: ['e2e'], customFields: { field: [{ name: 'Company', value: 'Acme' }] } },
				},
			},
			{
				name: 'Update',
				node: 'aWeberSubscriber',
				parameters: {
					operation: 'update',
					...onList(),
					subscriberId: idFrom('Create'),
					updateFields: { name: 'E2E Person Jr', customFields: { field: [{ name: 'Plan', value: 'pro' }] } },
				},
			},
			{
				name: 'Tags',
				node: 'aWeberSubscriber',
				parameters: {
					operation: 'update',
					...onList(),
					subscriberId: idFrom('Create'),
					updateFields: { addTags: ['vip', 'fair'], removeTags: ['e2e'] },
				},
			},
			{
				name: 'Upsert',
				node: 'aWeberSubscriber',
				parameters: { operation: 'upsert', ...onList(), email: 'grace.hopper@example.com', additionalFields: { tags: ['upsell'] } },
			},
			{
				name: 'Purchase',
				node: 'aWeberSubscriber',
				parameters: {
					...PURCHASE_FIELDS,
					...onList(),
					email: 'buyer@example.com',
					additionalFields: { name: 'Bea Buyer', tags: ['buyer'] },
				},
			},
			{
				name: 'Move',
				node: 'aWeberSubscriber',
				parameters: { operation: 'move', ...onList(), subscriberId: idFrom('Create'), destinationListId: byId(customers) },
			},
			{
				name: 'Unsubscribe',
				node: 'aWeberSubscriber',
				parameters: { operation: 'unsubscribe', ...onList(), subscriberId: idFrom('Upsert') },
			},
			{
				name: 'Delete',
				node: 'aWeberSubscriber',
				parameters: { operation: 'delete', ...onList(customers), subscriberId: idFrom('Move') },
			},
		]);

		const [created] = nodeItems(result, 'Create');
		expect(created).toMatchObject({ email: 'e2e.person@example.com', name: 'E2E Person', tags: ['e2e'], status: 'subscribed' });
		expect(created.custom_fields).toMatchObject({ Company: 'Acme' });
		expect(nodeItems(result, 'Update')).toEqual([
			expect.objectContaining({ id: created.id, name: 'E2E Person Jr', custom_fields: expect.objectContaining({ Company: 'Acme', Plan: 'pro' }) }),
		]);
		expect(nodeItems(result, 'Tags')[0].tags).toEqual(['vip', 'fair']);
		const [grace] = nodeItems(result, 'Upsert');
		expect(grace).toMatchObject({ email: 'grace.hopper@example.com', tags: expect.arrayContaining(['upsell']) });
		const [buyer] = nodeItems(result, 'Purchase');
		expect(buyer).toMatchObject({
			email: 'buyer@example.com',
			name: 'Bea Buyer',
			tags: ['buyer'],
			purchase_activity_link: expect.stringContaining('ws.op=getActivity'),
		});
		const [moved] = nodeItems(result, 'Move');
		expect(moved).toMatchObject({ email: 'e2e.person@example.com', self_link: expect.stringContaining(`/lists/${customers}/subscribers/`) });
		expect(nodeItems(result, 'Unsubscribe')).toEqual([expect.objectContaining({ id: grace.id, status: 'unsubscribed' })]);
		expect(nodeItems(result, 'Delete')).toEqual([{ deleted: true }]);

		// What AWeber received, in order (each write then reads the result back; the custom field names are checked
		// against the list's first, and a purchase is accepted with 202).
		const newsletter = `${listPath()}/subscribers`;
		expect(apiCalls()).toEqual([
			`GET ${listPath()}/custom_fields 200`,
			`POST ${newsletter} 201`,
			`GET ${newsletter}/${created.id} 200`,
			`GET ${newsletter}/${created.id} 200`,
			`PATCH ${newsletter}/${created.id} 209`,
			`GET ${newsletter}/${created.id} 200`,
			`PATCH ${newsletter}/${created.id} 209`,
			`POST ${newsletter} 201`,
			`GET ${newsletter}/${grace.id} 200`,
			`POST ${listPath()}/purchases 202`,
			`GET ${newsletter}/${buyer.id} 200`,
			`POST ${newsletter}/${created.id} 201`,
			`GET ${listPath(customers)}/subscribers/${moved.id} 200`,
			`GET ${newsletter}/${grace.id} 200`,
			`PATCH ${newsletter}/${grace.id} 209`,
			`DELETE ${listPath(customers)}/subscribers/${moved.id} 200`,
		]);
		expect(firstCall('POST', newsletter)?.body).toMatchObject({ email: 'e2e.person@example.com', tags: ['e2e'] });
		expect(env.sandbox.requests().find((entry) => entry.method === 'PATCH' && (entry.body as { tags?: unknown }).tags)?.body).toMatchObject({
			tags: { add: ['vip', 'fair'], remove: ['e2e'] },
		});
		expect(firstCall('POST', `${listPath()}/purchases`)?.body).toMatchObject({ product_name: 'Trail Jacket', value: 49.5, currency: 'USD' });
		expect(firstCall('POST', `${newsletter}/${created.id}`)?.body).toMatchObject({ 'ws.op': 'move' });
	});

	it('adds 20 subscribers in one run with Output "Request Summary": one POST each, no read-back', async () => {
		const emails = Array.from({ length: 20 }, (_, index) => `e2e-fast-${index}@example.com`);
		const workflow = itemsWorkflow(
			'Bulk add, request summary',
			{ name: 'People', jsCode: `return ${JSON.stringify(emails)}.map((email) => ({ json: { email } }));` },
			aweberNode(
				{
					name: 'Add Subscribers',
					node: 'aWeberSubscriber',
					parameters: { operation: 'create', ...onList(), email: '={{ $json.email }}', output: 'summary' },
					executeOnce: false,
				},
				env.credentialId,
				[440, 0],
			),
		);
		const result = await runWorkflow(env.n8n, await importWorkflow(env.n8n, workflow));

		expect(result.status).toBe('success');
		const added = nodeItems(result, 'Add Subscribers');
		expect(added.map((item) => item.email)).toEqual(emails);
		for (const item of added) {
			expect(item).toEqual({
				id: expect.any(Number),
				email: item.email,
				list_id: env.sandbox.seed.lists.newsletter,
				list_link: `${env.sandbox.apiBaseUrl}${listPath()}`,
				self_link: `${env.sandbox.apiBaseUrl}${listPath()}/subscribers/${item.id}`,
			});
		}
		expect(new Set(added.map((item) => item.id)).size).toBe(20);
		// What AWeber received: the 20 adds, nothing else.
		expect(apiCalls()).toEqual(emails.map(() => `POST ${listPath()}/subscribers 201`));
		expect(env.sandbox.requests().filter((entry) => entry.method === 'POST').map((entry) => (entry.body as { email?: string }).email)).toEqual(
			expect.arrayContaining(emails),
		);
	});

	it('stops at a contact that is not an email (On Error left at stop): the one before is written, nothing is sent after it, the error says so', async () => {
		const contacts = ['e2e-stop-0@example.com', 'not-an-email', 'e2e-stop-2@example.com'];
		const workflow = itemsWorkflow(
			'Create or Update, second contact not an email',
			{ name: 'Contacts', jsCode: `return ${JSON.stringify(contacts)}.map((email) => ({ json: { email } }));` },
			aweberNode(
				{ name: 'Create or Update', node: 'aWeberSubscriber', parameters: { operation: 'upsert', ...onList(), email: '={{ $json.email }}' }, executeOnce: false },
				env.credentialId,
				[440, 0],
			),
		);
		const result = await runWorkflow(env.n8n, await importWorkflow(env.n8n, workflow));

		expect(result.status).toBe('error');
		const error = result.error as { message?: string; description?: string };
		expect(error.message).toContain('The "Email" field must be an email address, not "not-an-email"');
		expect(error.description).toContain('1 item was written to AWeber in this run: item 0.');
		expect(error.description).toContain('Nothing was sent for the items after item 1');
		// What AWeber received: the first contact's add, nothing for the third.
		const adds = env.sandbox.requests().filter((entry) => entry.method === 'POST' && entry.path === `${listPath()}/subscribers`);
		expect(adds.map((entry) => [(entry.body as { email?: string }).email, entry.status])).toEqual([[contacts[0], 201]]);
	});

	it('writes custom fields: create, update, delete', async () => {
		const result = await run('Custom field writes', [
			{ name: 'Create Field', node: 'aWeberCustomField', parameters: { operation: 'create', ...onList(), name: 'Favourite Color' } },
			{
				name: 'Update Field',
				node: 'aWeberCustomField',
				parameters: {
					operation: 'update',
					...onList(),
					customFieldId: idFrom('Create Field'),
					updateFields: { name: 'Favourite Colour', isSubscriberUpdateable: true },
				},
			},
			{ name: 'Delete Field', node: 'aWeberCustomField', parameters: { operation: 'delete', ...onList(), customFieldId: idFrom('Create Field') } },
		]);
		const [field] = nodeItems(result, 'Create Field');
		expect(field).toMatchObject({ name: 'Favourite Color', id: expect.any(Number) });
		expect(nodeItems(result, 'Update Field')).toEqual([
			expect.objectContaining({ id: field.id, name: 'Favourite Colour', is_subscriber_updateable: true }),
		]);
		expect(nodeItems(result, 'Delete Field')).toEqual([{ deleted: true }]);
		const fields = `${listPath()}/custom_fields`;
		expect(apiCalls()).toEqual([
			`POST ${fields} 201`,
			`GET ${fields}/${field.id} 200`,
			`PATCH ${fields}/${field.id} 209`,
			`DELETE ${fields}/${field.id} 200`,
		]);
	});

	it('writes broadcasts: create a draft, update, schedule, cancel, delete', async () => {
		const tomorrow = new Date(Date.now() + 24 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
		const broadcastId = idFrom('Create Draft', 'broadcast_id');
		const result = await run('Broadcast writes', [
			{
				name: 'Create Draft',
				node: 'aWeberBroadcast',
				parameters: { operation: 'create', ...onList(), subject: 'Spring sale', bodyHtml: '<p>Hello</p>', bodyText: 'Hello' },
			},
			{
				name: 'Update Draft',
				node: 'aWeberBroadcast',
				parameters: { operation: 'update', ...onList(), broadcastId, updateFields: { subject: 'Spring sale, take two' } },
			},
			{ name: 'Schedule', node: 'aWeberBroadcast', parameters: { operation: 'schedule', ...onList(), broadcastId, scheduledFor: tomorrow } },
			{ name: 'Cancel', node: 'aWeberBroadcast', parameters: { operation: 'cancel', ...onList(), broadcastId } },
			{ name: 'Delete Draft', node: 'aWeberBroadcast', parameters: { operation: 'delete', ...onList(), broadcastId } },
		]);
		const [draft] = nodeItems(result, 'Create Draft');
		expect(draft).toMatchObject({ subject: 'Spring sale', status: 'draft', broadcast_id: expect.any(Number) });
		const id = draft.broadcast_id as number;
		expect(nodeItems(result, 'Update Draft')).toEqual([expect.objectContaining({ broadcast_id: id, subject: 'Spring sale, take two' })]);
		const [scheduled] = nodeItems(result, 'Schedule');
		expect(scheduled).toMatchObject({ broadcast_id: id, status: 'scheduled' });
		expect(Date.parse(String(scheduled.scheduled_for))).toBe(Date.parse(tomorrow));
		expect(nodeItems(result, 'Cancel')).toEqual([expect.objectContaining({ broadcast_id: id, status: 'draft', scheduled_for: null })]);
		expect(nodeItems(result, 'Delete Draft')).toEqual([{ deleted: true }]);
		const broadcasts = `${listPath()}/broadcasts`;
		expect(apiCalls()).toEqual([
			`POST ${broadcasts} 200`,
			`PUT ${broadcasts}/${id} 200`,
			`POST ${broadcasts}/${id}/schedule 200`,
			`GET ${broadcasts}/${id} 200`,
			`POST ${broadcasts}/${id}/cancel 200`,
			`GET ${broadcasts}/${id} 200`,
			`DELETE ${broadcasts}/${id} 204`,
		]);
		expect(firstCall('POST', broadcasts)?.body).toMatchObject({ subject: 'Spring sale', body_html: '<p>Hello</p>', body_text: 'Hello' });
		expect(firstCall('PUT', `${broadcasts}/${id}`)?.body).toMatchObject({ subject: 'Spring sale, take two' });
	});

	/** The "Keep a list in sync" example as `npm start` imports it: its credential reference on this instance's credential. */
	function syncExample(): WorkflowJson {
		const example = JSON.parse(readFileSync(SYNC_EXAMPLE_FILE, 'utf8')) as WorkflowJson;
		const nodes = example.nodes.map((node) =>
			node.credentials ? { ...node, credentials: { aWeberOAuth2Api: { id: env.credentialId, name: 'AWeber' } } } : node,
		);
		return { ...example, nodes };
	}
	/** The Customers list as the sandbox holds it, read with a fresh token. */
	const readCustomers = async () =>
		await readList(env.sandbox.apiBaseUrl, env.sandbox.issueToken().access_token, env.sandbox.seed.accountId, env.sandbox.seed.lists.customers);

	it('runs the "Keep a list in sync" example as imported: the Customers list then equals its source, only the differences written', async () => {
		const before = await readCustomers();
		env.sandbox.clearRequests();

		const result = await runWorkflow(env.n8n, await importWorkflow(env.n8n, syncExample()));

		expect(result.status).toBe('success');
		expect(nodeItems(result, SYNC_NODES.create).map((item) => item.email)).toEqual(['margaret.hamilton@example.com']);
		expect(nodeItems(result, SYNC_NODES.update).map((item) => item.email).sort()).toEqual(['jean.sammet@example.com', 'sophie.wilson@example.com']);
		const writes = env.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/') && entry.method !== 'GET');
		expect(writes.map((entry) => entry.method).sort()).toEqual(['PATCH', 'PATCH', 'POST']);
		const after = await readCustomers();
		expect(checkListAgainstSource(after, exampleSource(), before, { unsubscribeRemoved: false })).toEqual({ lost: [], wrong: [] });
	});

	it.each([
		['an empty source', (code: string) => `${code.slice(0, code.indexOf('return ['))}return [];`],
		['a source whose address column is `Email`', (code: string) => code.replace(/\{ email: /g, '{ Email: ')],
	])('stops %s with the Unsubscribe node on before anything is written (the guard against emptying a list)', async (_case, source) => {
		const example = syncExample();
		const nodes = example.nodes.map((node) => {
			if (node.name === SYNC_NODES.unsubscribe) return { ...node, disabled: false };
			if (node.name === 'CRM contacts (sample)') return { ...node, parameters: { ...node.parameters, jsCode: source(String(node.parameters.jsCode)) } };
			return node;
		});
		const before = await readCustomers();
		env.sandbox.clearRequests();

		const result = await runWorkflow(env.n8n, await importWorkflow(env.n8n, { ...example, nodes }));

		expect(result.status).toBe('success');
		expect(env.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/') && entry.method !== 'GET')).toEqual([]);
		// The 4 subscribed subscribers of Customers (Mary Keller is unsubscribed), each refused with the same error.
		expect(nodeItems(result, SYNC_NODES.unsubscribe).map((item) => item.error)).toEqual(
			Array(4).fill("This run would unsubscribe 4 of the list's 4 subscribed subscribers, more than the limit of 1 (10 % of them)"),
		);
		expect(await readCustomers()).toEqual(before);
	});
});
