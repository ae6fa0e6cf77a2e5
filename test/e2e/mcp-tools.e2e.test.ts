// The AWeber nodes as tools behind n8n's MCP Server Trigger, called by a real MCP client (the official SDK): the
// client sees each tool's name, description and input schema, its calls reach the sandbox as the AWeber requests
// the arguments call for, and a bad argument comes back as a readable tool error (docs/ai-agents.md).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import {
	activateWorkflow,
	aweberTool,
	byId,
	createAweberCredential,
	fromAI,
	importWorkflow,
	PROJECT_DIR,
	RUNTIME_LINE,
	toolConnections,
	useSandboxAndN8n,
	type WorkflowNode,
} from './lib';

const MCP_PATH = 'aweber-tools';

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };

describe('AWeber tools behind n8n\'s MCP Server Trigger, called by an MCP client', () => {
	let client: Client;
	let listPath: string;

	// Written before the servers' hooks: afterAll hooks run in that order, so the client closes while n8n still runs.
	afterAll(async () => await client?.close());
	const env = useSandboxAndN8n();
	beforeAll(async () => {
		const { sandbox, n8n } = env;
		const credentialId = await createAweberCredential(n8n, sandbox, { token: sandbox.issueToken() });
		const { seed } = sandbox;
		listPath = `/1.0/accounts/${seed.accountId}/lists/${seed.lists.newsletter}`;
		const onList = { accountId: byId(seed.accountId), listId: byId(seed.lists.newsletter) };
		const tools: WorkflowNode[] = [
			aweberTool('Find subscriber', 'aWeberSubscriber', { operation: 'find', ...onList, filters: { email: fromAI('email', 'The email address to look for') } }, credentialId, [0, 300]),
			aweberTool(
				'Add or update subscriber',
				'aWeberSubscriber',
				{
					operation: 'upsert',
					...onList,
					email: fromAI('email', 'The email address of the person'),
					additionalFields: { tags: fromAI('tags', 'Tags to add, comma-separated') },
				},
				credentialId,
				[200, 300],
			),
			aweberTool('Add new subscriber', 'aWeberSubscriber', { operation: 'create', ...onList, email: fromAI('email', 'The email address of the person') }, credentialId, [200, 500]),
			aweberTool('Get lists', 'aWeberList', { operation: 'getAll', accountId: byId(seed.accountId), limit: 10 }, credentialId, [400, 300]),
			aweberTool('Get list', 'aWeberList', { operation: 'get', accountId: byId(seed.accountId), listId: byId(fromAI('list_id', 'The ID of the list')) }, credentialId, [400, 500]),
			aweberTool(
				'Create broadcast draft',
				'aWeberBroadcast',
				{ operation: 'create', ...onList, subject: fromAI('subject', 'The subject line'), bodyHtml: fromAI('body_html', 'The email body as HTML') },
				credentialId,
				[600, 300],
			),
			aweberTool(
				'Broadcast statistics',
				'aWeberBroadcast',
				{ operation: 'getStatistics', ...onList, broadcastId: byId(fromAI('broadcast_id', 'The ID of a sent broadcast')) },
				credentialId,
				[800, 300],
			),
		];
		const trigger: WorkflowNode = {
			name: 'MCP Server Trigger',
			type: '@n8n/n8n-nodes-langchain.mcpTrigger',
			typeVersion: 2,
			position: [400, 0],
			parameters: { path: MCP_PATH },
			webhookId: randomUUID(),
		};
		const workflowId = await importWorkflow(n8n, { name: 'AWeber MCP', nodes: [trigger, ...tools], connections: toolConnections(tools, trigger.name) });
		await activateWorkflow(n8n, workflowId);
		client = new Client({ name: 'aweber-e2e', version: '1.0.0' });
		await client.connect(new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/${MCP_PATH}`)));
	});

	const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
	const aweberRequests = () =>
		env.sandbox
			.requests()
			.filter((entry) => entry.path.startsWith('/1.0/'))
			.map((entry) => ({ method: entry.method, path: entry.path, query: entry.query, body: entry.body }));

	it('lists the tools with their names, what they do, whether they change data, and the arguments the model fills', async () => {
		const { tools } = await client.listTools();
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		expect(Object.keys(byName).sort()).toEqual(['Add_new_subscriber', 'Add_or_update_subscriber', 'Broadcast_statistics', 'Create_broadcast_draft', 'Find_subscriber', 'Get_list', 'Get_lists']);
		expect(byName.Find_subscriber.description).toMatch(/^Search one list's subscribers .* Read-only: changes nothing in AWeber\. Returns /);
		expect(byName.Add_or_update_subscriber.description).toMatch(/Changes data in AWeber: adds or updates a subscriber/);
		expect(byName.Create_broadcast_draft.description).toMatch(/as a draft.*Changes data in AWeber/);
		expect(byName.Get_lists.description).toMatch(/^List the mailing lists .* Read-only/);
		expect(byName.Broadcast_statistics.description).toMatch(/opens, clicks, sales .* Read-only/);
		const properties = (name: string) => byName[name].inputSchema.properties as Record<string, { type: string; description?: string }>;
		expect(properties('Find_subscriber')).toEqual({ email: expect.objectContaining({ type: 'string', description: 'The email address to look for' }) });
		expect(Object.keys(properties('Add_or_update_subscriber')).sort()).toEqual(['email', 'tags']);
		expect(Object.keys(properties('Create_broadcast_draft')).sort()).toEqual(['body_html', 'subject']);
		expect(Object.keys(properties('Broadcast_statistics'))).toEqual(['broadcast_id']);
		expect(properties('Get_lists')).toEqual({});
	});

	it('calls the tools: the sandbox receives exactly the requests the arguments call for', async () => {
		const { seed } = env.sandbox;
		env.sandbox.clearRequests();
		const added = await call('Add_or_update_subscriber', { email: 'ada@example.com', tags: 'vip,webinar' });
		expect(added.isError).toBeFalsy();
		expect(added.content[0].text).toContain('ada@example.com');
		expect(aweberRequests().map((entry) => `${entry.method} ${entry.path}`)).toEqual([`POST ${listPath}/subscribers`, expect.stringMatching(new RegExp(`^GET ${listPath}/subscribers/\\d+$`))]);
		expect(aweberRequests()[0].body).toMatchObject({ email: 'ada@example.com', tags: ['vip', 'webinar'], update_existing: 'true' });

		env.sandbox.clearRequests();
		const found = await call('Find_subscriber', { email: 'ada@example.com' });
		expect(found.isError).toBeFalsy();
		expect(JSON.parse(found.content[0].text!)).toEqual([expect.objectContaining({ email: 'ada@example.com', tags: expect.arrayContaining(['vip', 'webinar']) })]);
		expect(aweberRequests()).toEqual([expect.objectContaining({ method: 'GET', path: `${listPath}/subscribers`, query: expect.objectContaining({ 'ws.op': 'find', email: 'ada@example.com' }) })]);

		env.sandbox.clearRequests();
		const lists = await call('Get_lists', {});
		expect(JSON.parse(lists.content[0].text!).map((list: { id: number }) => list.id)).toEqual(expect.arrayContaining([seed.lists.newsletter, seed.lists.customers]));
		expect(aweberRequests().map((entry) => `${entry.method} ${entry.path}`)).toEqual([`GET /1.0/accounts/${seed.accountId}/lists`]);

		env.sandbox.clearRequests();
		const draft = await call('Create_broadcast_draft', { subject: 'Next week', body_html: '<p>Hello</p>' });
		expect(draft.isError).toBeFalsy();
		expect(JSON.parse(draft.content[0].text!)).toEqual([expect.objectContaining({ subject: 'Next week', status: 'draft' })]);
		expect(aweberRequests()[0]).toMatchObject({ method: 'POST', path: `${listPath}/broadcasts`, body: expect.objectContaining({ subject: 'Next week', body_html: '<p>Hello</p>' }) });
		expect(aweberRequests().some((entry) => entry.path.endsWith('/schedule'))).toBe(false);

		env.sandbox.clearRequests();
		const stats = await call('Broadcast_statistics', { broadcast_id: String(seed.broadcasts.sent) });
		expect(JSON.parse(stats.content[0].text!)).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'unique_opens' })]));
		expect(aweberRequests().map((entry) => `${entry.method} ${entry.path}`)).toEqual([expect.stringMatching(new RegExp(`^GET ${listPath}/campaigns/b${seed.broadcasts.sent}/stats`))]);
	});

	it('a bad argument comes back as a readable tool error, and nothing is sent to AWeber', async () => {
		env.sandbox.clearRequests();
		const result = await call('Add_or_update_subscriber', { email: 'not an email', tags: '' });
		expect(result.isError).toBe(true);
		expect(result.content[0].text).toMatch(/Email.*not an email/i);
		expect(aweberRequests()).toEqual([]);
	});

	it('an address already on the list: the tool error tells the agent to use Create or Update', async () => {
		expect((await call('Add_new_subscriber', { email: 'twice@example.com' })).isError).toBeFalsy();
		const again = await call('Add_new_subscriber', { email: 'twice@example.com' });
		expect(again.isError).toBe(true);
		expect(again.content[0].text).toMatch(/already subscribed[\s\S]*use the Create or Update operation/i);
	});

	it('an unknown list comes back as a readable tool error', async () => {
		env.sandbox.clearRequests();
		const result = await call('Get_list', { list_id: '999999' });
		expect(result.isError).toBe(true);
		expect(result.content[0].text).toMatch(/List with given id not found[\s\S]*check the IDs/);
		expect(aweberRequests().map((entry) => `${entry.method} ${entry.path}`)).toEqual([`GET /1.0/accounts/${env.sandbox.seed.accountId}/lists/999999`]);
	});

	// `npm start` runs n8n 2.x: the example it provisions uses node versions of that line.
	(RUNTIME_LINE === 1 ? it.skip : it)('knows every node type and version of the "AI newsletter assistant" example', async () => {
		const example = JSON.parse(readFileSync(path.join(PROJECT_DIR, 'examples', 'ai-newsletter-assistant.json'), 'utf8')) as {
			nodes: Array<{ type: string; typeVersion: number }>;
		};
		const known = (await env.n8n.request<Array<{ name: string; version: number | number[] }>>('GET', '/types/nodes.json')).body;
		const missing = example.nodes.filter(
			(node) => !known.some((type) => type.name === node.type && [type.version].flat().includes(node.typeVersion)),
		);
		expect(missing).toEqual([]);
	});
});
