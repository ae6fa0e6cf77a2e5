// The AWeber nodes as tools of n8n's AI Agent node, its OpenAI chat model pointed (credential Base URL) at a scripted
// OpenAI-compatible server on loopback: the tool calls the "model" makes reach the sandbox with the arguments it chose
// ($fromAI), and the tool results it gets back are compact (Simplify). docs/ai-agents.md.
import {
	aweberTool,
	byId,
	createAweberCredential,
	fromAI,
	importWorkflow,
	MANUAL_TRIGGER_NAME,
	manualTriggerNode,
	runWorkflow,
	startScriptedModel,
	toolConnections,
	useSandboxAndN8n,
	type ChatMessage,
	type ScriptedModel,
	type WorkflowNode,
} from './lib';

describe('AWeber tools in n8n\'s AI Agent, with a scripted chat model', () => {
	let model: ScriptedModel;

	beforeAll(async () => {
		model = await startScriptedModel([
			{ toolCalls: [{ name: 'Add_or_update_subscriber', arguments: { email: 'grace@example.com', tags: 'vip,webinar' } }] },
			{ toolCalls: [{ name: 'Find_subscriber', arguments: { email: 'grace@example.com' } }] },
			{ answer: 'Grace is on the Newsletter list, tagged vip and webinar.' },
		]);
	});
	// After the model is up; n8n and the sandbox stop before it does.
	const env = useSandboxAndN8n();
	afterAll(async () => await model?.stop());

	it('the model\'s tool calls reach AWeber with its arguments, and it gets compact results back', async () => {
		const { sandbox, n8n } = env;
		const { seed } = sandbox;
		const aweberCredential = await createAweberCredential(n8n, sandbox, { token: sandbox.issueToken() });
		const openAi = await n8n.rest<{ id: string }>('POST', '/credentials', {
			name: 'Scripted model',
			type: 'openAiApi',
			data: { apiKey: 'sk-scripted', url: model.url },
		});
		const onList = { accountId: byId(seed.accountId), listId: byId(seed.lists.newsletter) };
		const tools: WorkflowNode[] = [
			aweberTool(
				'Add or update subscriber',
				'aWeberSubscriber',
				{ operation: 'upsert', ...onList, email: fromAI('email', 'The email address of the person'), additionalFields: { tags: fromAI('tags', 'Tags to add, comma-separated') } },
				aweberCredential,
				[400, 300],
			),
			aweberTool('Find subscriber', 'aWeberSubscriber', { operation: 'find', ...onList, filters: { email: fromAI('email', 'The email address to look for') } }, aweberCredential, [600, 300]),
		];
		const nodes: WorkflowNode[] = [
			manualTriggerNode(),
			{
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 2.2,
				position: [300, 0],
				parameters: { promptType: 'define', text: 'Add grace@example.com with the tags vip and webinar, then check her entry.', options: {} },
			},
			{
				name: 'Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [200, 300],
				parameters: { model: { __rl: true, mode: 'id', value: 'scripted-model' }, options: {} },
				credentials: { openAiApi: { id: openAi.id, name: 'Scripted model' } },
			},
			...tools,
		];
		const connections = {
			[MANUAL_TRIGGER_NAME]: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			...toolConnections(tools, 'AI Agent'),
		};
		const workflowId = await importWorkflow(n8n, { name: 'AWeber agent', nodes, connections });
		sandbox.clearRequests();

		const result = await runWorkflow(n8n, workflowId);

		expect(result.status).toBe('success');
		expect(result.runData['AI Agent'][0].data.main[0][0].json.output).toBe('Grace is on the Newsletter list, tagged vip and webinar.');
		// The model was offered both tools, with the descriptions and arguments of docs/ai-agents.md.
		const offered = Object.fromEntries((model.received[0].tools ?? []).map((tool) => [tool.function.name, tool.function]));
		expect(Object.keys(offered).sort()).toEqual(['Add_or_update_subscriber', 'Find_subscriber']);
		expect(offered.Add_or_update_subscriber.description).toMatch(/Changes data in AWeber/);
		expect(Object.keys(offered.Add_or_update_subscriber.parameters.properties).sort()).toEqual(['email', 'tags']);
		// AWeber received what the model chose: the add with its tags, then the search for that address.
		const listPath = `/1.0/accounts/${seed.accountId}/lists/${seed.lists.newsletter}`;
		const requests = sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));
		expect(requests.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
			`POST ${listPath}/subscribers`,
			expect.stringMatching(new RegExp(`^GET ${listPath}/subscribers/\\d+$`)),
			`GET ${listPath}/subscribers`,
		]);
		expect(requests[0]).toMatchObject({ method: 'POST', path: `${listPath}/subscribers`, body: expect.objectContaining({ email: 'grace@example.com', tags: ['vip', 'webinar'] }) });
		expect(requests.at(-1)).toMatchObject({ method: 'GET', path: `${listPath}/subscribers`, query: expect.objectContaining({ 'ws.op': 'find', email: 'grace@example.com' }) });
		// The tool results the model received are the simplified subscriber (a handful of fields, not AWeber's ~40).
		const toolResults = model.received.at(-1)!.messages.filter((message: ChatMessage) => message.role === 'tool');
		expect(toolResults).toHaveLength(2);
		for (const message of toolResults) {
			const [subscriber] = JSON.parse(message.content!) as Array<Record<string, unknown>>;
			expect(subscriber).toMatchObject({ email: 'grace@example.com', tags: expect.arrayContaining(['vip', 'webinar']) });
			expect(Object.keys(subscriber).length).toBeLessThanOrEqual(12);
			expect(subscriber).not.toHaveProperty('http_etag');
		}
	});
});
