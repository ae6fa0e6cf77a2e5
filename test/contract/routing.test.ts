// Contract tests: each assumption the package makes about n8n's RoutingNode (listed in nodes/shared/routing.ts,
// A1 to A11; A10 is checked in test/nodes/error-output.test.ts), checked against the n8n-core this suite runs with.
// `npm run test:compat` runs them on every n8n version of the matrix; a failure here means the request path must
// change for that version.
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { readAweberFailure } from '../../nodes/shared/errors';
import { aweberCredentials, aweberRequestDefaults } from '../../nodes/shared/requestDefaults';
import { aweberTransport, sendAweberRequest, sendSubscriberAdd } from '../../nodes/shared/routing';
import { useTestbed } from '../harness/aweber';
import { useAnswerLosingProxy } from '../harness/answerLosingProxy';

type Pagination = (this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions) => Promise<INodeExecutionData[]>;

/** What the probe node saw, in order. */
interface Seen {
	step: string;
	itemIndex: number;
	executeData?: unknown;
	url?: string;
	maxResults?: unknown;
}

const bed = useTestbed({ resetEachTest: false });
const losing = useAnswerLosingProxy(bed);

let seen: Seen[] = [];
const record = (step: string, context: IExecuteSingleFunctions, extra: Partial<Seen> = {}) =>
	seen.push({ step, itemIndex: context.getItemIndex(), executeData: context.getExecuteData(), ...extra });

async function operationPreSend(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	record('operation preSend', this, { url: requestOptions.url });
	return requestOptions;
}

async function probePostReceive(this: IExecuteSingleFunctions, items: INodeExecutionData[], _response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
	record('postReceive', this);
	return items;
}

/** The answers the operation's postReceive was given, as it saw them (A4). */
let answers: IN8nHttpFullResponse[] = [];
async function recordAnswer(this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
	answers.push(response);
	return items;
}

/** The add's body: its email, from the field. */
async function addBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	return { ...requestOptions, body: { email: this.getNodeParameter('email', '') } };
}

/** Output steps that only mark the items they shaped (A9). */
const markStep = (step: string) =>
	async function (this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		return items.map((item) => ({ ...item, json: { ...item.json, steps: [...((item.json.steps as string[] | undefined) ?? []), step] } }));
	};
const chosenOptionStep = markStep('chosen option');
const otherOptionStep = markStep('other option');
const shownPropertyStep = markStep('shown property');
const hiddenPropertyStep = markStep('hidden property');

/** The node's hook: records, then runs the package's routed entry. */
let nodePagination: Pagination = async function (requestData) {
	record('node pagination', this, { url: requestData.options.url, maxResults: requestData.maxResults });
	return await sendAweberRequest.call(this, requestData);
};

async function operationPagination(this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions) {
	record('operation pagination', this, { url: requestData.options.url });
	return await sendAweberRequest.call(this, requestData);
}

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	default: 'get',
	options: [
		{
			name: 'Get',
			value: 'get',
			routing: {
				request: { method: 'GET', url: '/accounts/{accountId}' },
				send: { preSend: [operationPreSend] },
				output: { postReceive: [probePostReceive] },
			},
		},
		{
			name: 'Get With Own Entry',
			value: 'own',
			routing: {
				request: { method: 'GET', url: '/accounts/{accountId}' },
				operations: { pagination: operationPagination },
			},
		},
		{
			name: 'Get Many',
			value: 'getAll',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}/lists' }, output: { postReceive: [recordAnswer] } },
		},
		{
			name: 'Add',
			value: 'add',
			routing: {
				request: { method: 'POST', url: '/accounts/{accountId}/lists/{listId}/subscribers' },
				send: { preSend: [addBody] },
				operations: { pagination: sendSubscriberAdd },
				output: { postReceive: [recordAnswer] },
			},
		},
	],
};

const probe: INodeType = {
	description: {
		displayName: 'Routing Probe',
		name: 'routingProbe',
		group: ['transform'],
		version: 1,
		description: 'Records how RoutingNode runs routing',
		defaults: { name: 'Routing Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		requestDefaults: aweberRequestDefaults,
		requestOperations: { pagination: async function (this: IExecutePaginationFunctions, requestData) { return await nodePagination.call(this, requestData); } },
		properties: [
			aweberTransport,
			operation,
			{ displayName: 'Account', name: 'accountId', type: 'string', default: '' },
			{ displayName: 'List', name: 'listId', type: 'string', default: '' },
			{ displayName: 'Email', name: 'email', type: 'string', default: '' },
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				default: 'other',
				displayOptions: { show: { operation: ['get'] } },
				options: [
					{ name: 'Chosen', value: 'chosen', routing: { output: { postReceive: [chosenOptionStep] } } },
					{ name: 'Other', value: 'other', routing: { output: { postReceive: [otherOptionStep] } } },
				],
			},
			{
				displayName: 'Shown',
				name: 'shown',
				type: 'boolean',
				default: true,
				displayOptions: { show: { operation: ['get'] } },
				routing: { output: { postReceive: [shownPropertyStep] } },
			},
			{
				displayName: 'Hidden',
				name: 'hidden',
				type: 'boolean',
				default: true,
				displayOptions: { show: { operation: ['getAll'] } },
				routing: { output: { postReceive: [hiddenPropertyStep] } },
			},
			{
				displayName: 'Limit',
				name: 'limit',
				type: 'number',
				default: 2,
				displayOptions: { show: { operation: ['getAll'] } },
				routing: { output: { maxResults: '={{$value}}' } },
			},
		],
	},
};

const runProbe = async (parameters: IDataObject, items = 3, credentialId = bed.credentialId) => {
	bed.harness.nodeTypes.register('contract.routingProbe', probe);
	return await bed.harness.run(
		{
			nodes: [
				{
					id: 'probe',
					name: 'Routing Probe',
					type: 'contract.routingProbe',
					typeVersion: 1,
					position: [0, 0],
					parameters: { accountId: String(bed.sandbox.seed.accountId), ...parameters },
					credentials: { aWeberOAuth2Api: { id: credentialId, name: 'AWeber' } },
				},
			],
			connections: {},
		},
		{ inputItems: Array.from({ length: items }, (_, index) => ({ index })), startNode: 'Routing Probe' },
	);
};

beforeEach(() => {
	seen = [];
	answers = [];
	nodePagination = async function (requestData) {
		record('node pagination', this, { url: requestData.options.url, maxResults: requestData.maxResults });
		return await sendAweberRequest.call(this, requestData);
	};
});

describe('RoutingNode contract (nodes/shared/routing.ts)', () => {
	it('A1: the node-level pagination function runs once for every item of an operation that paginates', async () => {
		const result = await runProbe({ operation: 'get' });
		expect(result.status).toBe('success');
		expect(seen.filter((entry) => entry.step === 'node pagination').map((entry) => entry.itemIndex).sort()).toEqual([0, 1, 2]);
		expect(result.json('Routing Probe')).toHaveLength(3);
	});

	it("A2: an operation's own routing.operations.pagination replaces the node's", async () => {
		const result = await runProbe({ operation: 'own' });
		expect(result.status).toBe('success');
		expect(seen.map((entry) => entry.step)).toEqual(['operation pagination', 'operation pagination', 'operation pagination']);
	});

	it("A4: makeRoutingRequest runs the operation's postReceive before it resolves", async () => {
		nodePagination = async function (requestData) {
			record('node pagination', this);
			const items = await this.makeRoutingRequest(requestData);
			record('makeRoutingRequest resolved', this);
			return items;
		};
		await runProbe({ operation: 'get' }, 1);
		expect(seen.map((entry) => entry.step)).toEqual(['operation preSend', 'node pagination', 'postReceive', 'makeRoutingRequest resolved']);
	});

	it("A4: the routed entry reads a collection's further pages with makeRoutingRequest: the operation's postReceive gets AWeber's own answer to each page", async () => {
		bed.sandbox.pages.cap(1);
		try {
			const result = await runProbe({ operation: 'getAll', limit: 3 }, 1);
			expect(result.json('Routing Probe')).toHaveLength(3);
		} finally {
			bed.sandbox.pages.cap(undefined);
		}
		// Three pages of one list each, every one as AWeber answered it (status and headers), none made up.
		expect(answers).toHaveLength(3);
		for (const answer of answers) {
			expect(answer.statusCode).toBe(200);
			expect(String(answer.headers['content-type'])).toMatch(/json/);
		}
	});

	it("A4: a retried add that its first attempt carried out is output by the operation's postReceive run on AWeber's own answer, none made up", async () => {
		losing.proxy.loseAnswers(1, 'POST', `/lists/${bed.sandbox.seed.lists.empty}/subscribers`, '500');
		const email = 'routed.recovery@example.com';
		const result = await runProbe({ operation: 'add', listId: String(bed.sandbox.seed.lists.empty), email }, 1, losing.viaProxy);
		expect(result.status).toBe('success');
		// The add went through once (its answer lost), the retry was refused as a duplicate, the find showed the first
		// attempt's subscriber: the postReceive got that answer as AWeber gave it.
		expect(answers).toHaveLength(1);
		expect(answers[0].statusCode).toBe(200);
		expect(String(answers[0].headers['content-type'])).toMatch(/json/);
		expect(answers[0].body).toMatchObject({ entries: [expect.objectContaining({ email })] });
		// The item is what RoutingNode would make of that answer: its body, through the postReceive, then read as a page.
		expect(result.json('Routing Probe')).toEqual([expect.objectContaining({ email })]);
	});

	it('A5: every context of an item has its index, and the items of one run share one execute data object', async () => {
		await runProbe({ operation: 'get' });
		for (const index of [0, 1, 2]) {
			expect(seen.filter((entry) => entry.itemIndex === index).map((entry) => entry.step).sort()).toEqual(['node pagination', 'operation preSend', 'postReceive']);
		}
		const runKeys = new Set(seen.map((entry) => entry.executeData));
		expect(runKeys.size).toBe(1);
		expect(typeof [...runKeys][0]).toBe('object');
		const firstRun = [...runKeys][0];
		seen = [];
		await runProbe({ operation: 'get' }, 1);
		expect(seen[0].executeData).not.toBe(firstRun);
	});

	it("A6: requestData.maxResults carries the operation's Limit, and RoutingNode cuts the output to it", async () => {
		const result = await runProbe({ operation: 'getAll', limit: 2 }, 1);
		expect(seen.find((entry) => entry.step === 'node pagination')?.maxResults).toBe(2);
		expect(result.json('Routing Probe')).toHaveLength(2);
		// The routed entry's last page may hold more entries than the Limit: RoutingNode outputs only the first ones.
		nodePagination = async () => [1, 2, 3, 4, 5].map((entry) => ({ json: { entry } }));
		const cut = await runProbe({ operation: 'getAll', limit: 2 }, 1);
		expect(cut.json('Routing Probe')).toEqual([{ entry: 1 }, { entry: 2 }]);
	});

	it("A7: every item's request starts before any is awaited", async () => {
		const started = new Set<number>();
		let allStarted: () => void = () => undefined;
		const everyItemStarted = new Promise<void>((resolve) => (allStarted = resolve));
		nodePagination = async function (requestData) {
			started.add(this.getItemIndex());
			if (started.size === 3) allStarted();
			// Item 0 waits for the last item to start: with items run one by one this would time out.
			if (this.getItemIndex() === 0) {
				let timer: NodeJS.Timeout | undefined;
				await Promise.race([everyItemStarted, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
				clearTimeout(timer);
				record('item 0 saw', this, { maxResults: started.size });
			}
			return await sendAweberRequest.call(this, requestData);
		};
		await runProbe({ operation: 'get' });
		expect(seen.find((entry) => entry.step === 'item 0 saw')?.maxResults).toBe(3);
	});

	it("A11: when no preSend sends a request, every item's pagination function is called before a macrotask (an answer) runs", async () => {
		const entered = new Set<number>();
		const seenAfterAnswer: number[] = [];
		nodePagination = async function (requestData) {
			entered.add(this.getItemIndex());
			// What a request's answer is to the event loop: a macrotask. Shape Source for Comparison awaits one read here.
			await new Promise((resolve) => setImmediate(resolve));
			seenAfterAnswer.push(entered.size);
			return await sendAweberRequest.call(this, requestData);
		};
		await runProbe({ operation: 'get' }, 5);
		expect(seenAfterAnswer).toEqual([5, 5, 5, 5, 5]);
	});

	it("A8: an error from makeRoutingRequest carries AWeber's status and error body", async () => {
		let failure: ReturnType<typeof readAweberFailure> | undefined;
		nodePagination = async function (requestData) {
			try {
				return await this.makeRoutingRequest({ ...requestData, options: { ...requestData.options, url: '/accounts/999999999' } });
			} catch (error) {
				failure = readAweberFailure(error);
				return [{ json: {} }];
			}
		};
		await runProbe({ operation: 'get' }, 1);
		expect(failure).toMatchObject({ status: 404, type: 'NotFoundError', message: expect.any(String) });
		expect(failure?.message).not.toMatch(/^The resource you are requesting could not be found$/);
	});

	it("A9: requestData.postReceive lists the operation's and the shown properties' postReceive in property order, and makeRoutingRequest runs exactly those", async () => {
		let listed: unknown[] = [];
		nodePagination = async function (requestData) {
			listed = requestData.postReceive.flatMap((postReceive) => postReceive.actions);
			return await sendAweberRequest.call(this, requestData);
		};
		const result = await runProbe({ operation: 'get', output: 'chosen' }, 1);
		expect(listed).toEqual([probePostReceive, chosenOptionStep, shownPropertyStep]);
		expect(result.json('Routing Probe')).toEqual([expect.objectContaining({ steps: ['chosen option', 'shown property'] })]);
	});
});
