// Checks every operation of every node of the BUILT package (dist/, through the harness's package loader), each
// with the checks its kind calls for. No hand list of operations: a new operation is covered by being declared.
// The home of all-operations checks: Return All and Limit over several pages, IDs refused before any request,
// output shaping that keeps Return All whole (docs/architecture.md#return-all-reads-every-page).
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';
import { request } from 'undici';

import { PATH_PARAMETERS } from '../../nodes/shared/pathParameters';
import { REFUSES_BAD_INPUT } from '../../nodes/shared/itemFailures';
import { useTestbed } from '../harness/aweber';
import { loadPackage, PACKAGE_PREFIX } from '../harness/nodeTypes';
import type { SeedInfo } from '../sandbox/types';

interface DeclaredOperation {
	/** Node name without the package prefix. */
	node: string;
	nodeType: INodeType;
	resource?: string;
	operation: string;
	option: INodePropertyOptions;
	/** The properties n8n shows for this resource and operation. */
	shown: INodeProperties[];
	title: string;
}

/** Whether a property is shown for the resource and operation (the only display conditions this check needs). */
function shownFor(property: INodeProperties, resource: string | undefined, operation: string): boolean {
	const show = property.displayOptions?.show;
	if (!show) return true;
	if (show.resource && (resource === undefined || !show.resource.includes(resource))) return false;
	if (show.operation && !show.operation.includes(operation)) return false;
	return true;
}

function declaredOperations(): DeclaredOperation[] {
	const { nodes } = loadPackage();
	const operations: DeclaredOperation[] = [];
	for (const [typeName, nodeType] of nodes) {
		const { properties } = nodeType.description;
		for (const operationProperty of properties.filter((property) => property.name === 'operation')) {
			const resource = operationProperty.displayOptions?.show?.resource?.[0] as string | undefined;
			for (const option of (operationProperty.options ?? []) as INodePropertyOptions[]) {
				const operation = String(option.value);
				const node = typeName.slice(PACKAGE_PREFIX.length);
				operations.push({
					node,
					nodeType,
					resource,
					operation,
					option,
					shown: properties.filter((property) => property.name !== 'operation' && shownFor(property, resource, operation)),
					title: `${nodeType.description.displayName} ${resource ? `${resource} ` : ''}${option.name}`,
				});
			}
		}
	}
	return operations;
}

const operations = declaredOperations();
const returnAllOperations = operations.filter((declared) => declared.shown.some((property) => property.name === 'returnAll'));

/** A value the seeded sandbox has for each ID field, by field name (the seed's richest list, sent broadcast, ...). */
function seededIds(seed: SeedInfo): Record<string, string> {
	return {
		accountId: String(seed.accountId),
		listId: String(seed.lists.newsletter),
		destinationListId: String(seed.lists.customers),
		broadcastId: String(seed.broadcasts.sent),
		campaignId: seed.campaigns.broadcast,
		messageId: String(seed.messages.broadcast),
		subscriberId: String(seed.subscribers.subscribed),
		customFieldId: String(seed.customFields.company),
		integrationId: String(seed.integrations.facebook),
		segmentId: String(seed.segments.active),
		webFormId: String(seed.webForms.newsletter),
		splitTestId: String(seed.splitTests.newsletter),
		splitTestComponentId: seed.splitTestComponents.first,
		landingPageId: seed.landingPages.newsletter,
		statisticId: 'total_opens',
		openId: '1',
		trackedEventId: '1',
	};
}

/** Values for the other required fields, by field name: what a user would type. */
const REQUIRED_FIELD_VALUES: IDataObject = {
	name: 'Newsletter',
	campaignType: 'b',
	status: 'sent',
	subject: 'Spring news',
	scheduledFor: '2030-01-01T09:00:00Z',
	email: 'someone@example.com',
	ipAddress: '192.0.2.1',
	productName: 'Trail Jacket',
	value: 49,
	currency: 'USD',
	vendor: 'Sandbox Outfitters Shop',
	url: 'https://sandbox-outfitters.example/checkout/thanks',
	eventNote: 'Order 1',
};

/** The node's parameters for an operation: every ID field shown set to a seeded value, as typed by ID. */
function parametersFor(declared: DeclaredOperation, seed: SeedInfo, extra: IDataObject = {}): IDataObject {
	const ids = seededIds(seed);
	const parameters: IDataObject = { operation: declared.operation };
	if (declared.resource) parameters.resource = declared.resource;
	for (const property of declared.shown) {
		if (property.type === 'resourceLocator' && ids[property.name] !== undefined) {
			parameters[property.name] = { __rl: true, mode: 'id', value: ids[property.name] };
		} else if (property.required && ids[property.name] !== undefined) {
			parameters[property.name] = ids[property.name];
		} else if (property.required && REQUIRED_FIELD_VALUES[property.name] !== undefined) {
			parameters[property.name] = REQUIRED_FIELD_VALUES[property.name];
		}
	}
	return { ...parameters, ...extra };
}

const bed = useTestbed();

/**
 * Every entry of the collection the node asked for, read by the test itself: its request as the sandbox
 * logged it, then every `next_collection_link`, as a plain HTTP client would.
 */
async function everyEntryOf(firstRequest: { path: string; query: Record<string, string> }): Promise<IDataObject[]> {
	const token = bed.sandbox.issueToken();
	const entries: IDataObject[] = [];
	let link: string | undefined = `${bed.sandbox.apiBaseUrl}${firstRequest.path}?${new URLSearchParams(firstRequest.query).toString()}`;
	for (let pages = 0; link !== undefined; pages++) {
		if (pages > 1000) throw new Error(`${firstRequest.path}: more than 1000 pages`);
		const answer = await request(link, { headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' } });
		const answered = (await answer.body.json()) as { entries?: IDataObject[]; next_collection_link?: string } | IDataObject[];
		// AWeber's 2.0-beta API pages a bare array through the Link header; API 1.0 answers an envelope.
		const body = Array.isArray(answered) ? { entries: answered, next_collection_link: /<([^>]+)>\s*;\s*rel="?next"?/.exec(String(answer.headers.link ?? ''))?.[1] } : answered;
		if (answer.statusCode !== 200 || !Array.isArray(body.entries)) {
			throw new Error(`${firstRequest.path} is not a collection (${answer.statusCode}): ${JSON.stringify(body).slice(0, 200)}`);
		}
		entries.push(...body.entries);
		link = body.next_collection_link;
	}
	return entries;
}

/** What tells one output item from another: AWeber's link or ID where the output keeps one, else the whole item. */
function identity(json: IDataObject): string {
	for (const key of ['self_link', 'id', 'uuid', 'event_time']) {
		if (json[key] !== undefined && json[key] !== null) return `${key}:${String(json[key])}`;
	}
	return JSON.stringify(json);
}

/** Most entries per page served for an operation's collection: at least three pages where it has three entries. */
function pageCapFor(total: number): number {
	return Math.max(1, Math.ceil(total / 3));
}

describe('Every operation of the built package', () => {
	it('is found in dist/ (the suite checks what the package ships)', () => {
		expect(operations.length).toBeGreaterThan(50);
		// The count in issue 25 when this suite was written; a new Return All operation only raises it.
		expect(returnAllOperations.length).toBeGreaterThanOrEqual(26);
	});

	it('shapes its output with postReceive functions only, so Return All can read every page (docs/architecture.md#return-all-reads-every-page)', () => {
		const declarative: string[] = [];
		const visit = (where: string, routing: INodeProperties['routing'] | undefined) => {
			for (const action of routing?.output?.postReceive ?? []) {
				if (typeof action !== 'function') declarative.push(`${where}: "${action.type}"`);
			}
		};
		for (const declared of operations) {
			visit(declared.title, declared.option.routing);
			for (const property of declared.shown) {
				visit(`${declared.title} › ${property.displayName}`, property.routing);
				for (const choice of (property.options ?? []) as Array<INodePropertyOptions | INodeProperties>) {
					visit(`${declared.title} › ${property.displayName} › ${choice.name}`, (choice as INodePropertyOptions).routing);
				}
			}
		}
		expect(declarative).toEqual([]);
	});
});

describe('Every routed URL', () => {
	it('fills only {placeholders} the path parameter table knows (nodes/shared/pathParameters.ts), so each is checked', () => {
		const urls = operations.map((declared) => [declared.title, String(declared.option.routing?.request?.url ?? '')] as const);
		const placeholders = urls.flatMap(([title, url]) => [...url.matchAll(/\{(\w+)\}/g)].map((match) => [title, match[1]] as const));
		expect(placeholders.length).toBeGreaterThan(100);
		expect(placeholders.filter(([, name]) => PATH_PARAMETERS[name] === undefined)).toEqual([]);
	});
});

describe('Every preSend of every operation', () => {
	it('is declared through refusingBadInput, so a bad input stops the run like a refusal by AWeber (docs/architecture.md#when-an-item-fails)', () => {
		const unchecked: string[] = [];
		const visit = (where: string, routing: INodeProperties['routing'] | undefined) => {
			for (const preSend of routing?.send?.preSend ?? []) {
				if ((preSend as unknown as Record<string, unknown>)[REFUSES_BAD_INPUT] !== true) unchecked.push(`${where}: ${preSend.name || 'anonymous'}`);
			}
		};
		for (const declared of operations) {
			visit(declared.title, declared.option.routing);
			for (const property of declared.shown) {
				visit(`${declared.title} › ${property.displayName}`, property.routing);
				for (const choice of (property.options ?? []) as INodePropertyOptions[]) visit(`${declared.title} › ${property.displayName} › ${choice.name}`, choice.routing);
			}
		}
		expect(unchecked).toEqual([]);
	});
});

describe('An operation that shapes its output with a declarative step', () => {
	it('is refused before it sends anything, naming the rule (a rootProperty on Get Many would return the first page alone)', async () => {
		const list = returnAllOperations.find((declared) => declared.node === 'aWeberList' && declared.operation === 'getAll')!;
		const { description } = list.nodeType;
		const withRootProperty = description.properties.map((property) =>
			property.name !== 'operation'
				? property
				: {
						...property,
						options: (property.options as INodePropertyOptions[]).map((option) =>
							option.value !== 'getAll'
								? option
								: { ...option, routing: { ...option.routing, output: { postReceive: [{ type: 'rootProperty' as const, properties: { property: 'entries' } }] } } },
						),
					},
		);
		const probeName = `${PACKAGE_PREFIX}aWeberListWithRootProperty`;
		bed.harness.nodeTypes.register(probeName, { ...list.nodeType, description: { ...description, properties: withRootProperty } } as INodeType);
		const result = await bed.harness.runNode({
			type: probeName,
			credentialId: bed.credentialId,
			parameters: parametersFor(list, bed.sandbox.seed, { returnAll: true }),
		});
		expect(result.error?.message).toBe('This operation declares a declarative postReceive step ("rootProperty"), which AWeber nodes do not allow');
		expect(result.error?.description).toContain('so that Return All reads every page');
		expect(bed.sandbox.requests()).toEqual([]);
	});
});

describe.each(returnAllOperations.map((declared) => [declared.title, declared] as const))(
	'%s over a collection of several pages',
	(_title, declared) => {
		/** The collection the operation reads (path, and query without the page size), from a run with Limit 1. */
		async function collectionRead(): Promise<{ path: string; query: Record<string, string> }> {
			const probe = await bed.harness.runNode({
				type: declared.node,
				credentialId: bed.credentialId,
				parameters: parametersFor(declared, bed.sandbox.seed, { returnAll: false, limit: 1 }),
			});
			expect(probe.error?.message).toBeUndefined();
			// The collection is the probe's last request: an operation may first read what it needs for the path
			// (Get Link Report reads the account's and the broadcast's UUIDs).
			const request = bed.sandbox.requests().at(-1)!;
			const query = Object.fromEntries(Object.entries(request.query).filter(([key]) => !['ws.size', 'page_size'].includes(key)));
			return { path: request.path, query };
		}

		/**
		 * The collection with the sandbox's pages capped so it spans several; its entries as AWeber holds them.
		 * A collection AWeber answers with a single entry (the accounts of a token: only the one that authorized
		 * it; a list found by its exact name) cannot span pages: it is checked as one page.
		 */
		async function collectionOfSeveralPages(): Promise<{ all: IDataObject[]; cap: number }> {
			const collection = await collectionRead();
			const whole = await everyEntryOf(collection);
			expect(whole.length).toBeGreaterThanOrEqual(1);
			const cap = pageCapFor(whole.length);
			bed.sandbox.pages.cap(cap);
			bed.sandbox.clearRequests();
			return { all: await everyEntryOf(collection), cap };
		}

		it('Return All returns every entry exactly once, reading every page', async () => {
			const { all, cap } = await collectionOfSeveralPages();
			bed.sandbox.clearRequests();
			const result = await bed.harness.runNode({
				type: declared.node,
				credentialId: bed.credentialId,
				parameters: parametersFor(declared, bed.sandbox.seed, { returnAll: true }),
			});
			expect(result.error?.message).toBeUndefined();
			const identities = result.items.map(identity);
			expect({ items: result.items.length, distinct: new Set(identities).size }).toEqual({ items: all.length, distinct: all.length });
			expect(bed.sandbox.requests().length).toBeGreaterThanOrEqual(Math.ceil(all.length / cap));
		});

		it('a first page answered without entries is an error naming the unexpected answer, never an item', async () => {
			const collection = await collectionRead();
			bed.sandbox.faults.next(1, 'answer', { body: { total_size: 3, start: 0 }, method: 'GET', pathPrefix: collection.path, query: collection.query });
			bed.sandbox.clearRequests();
			const result = await bed.harness.runNode({
				type: declared.node,
				credentialId: bed.credentialId,
				parameters: parametersFor(declared, bed.sandbox.seed, { returnAll: true }),
			});
			expect(result.items).toEqual([]);
			expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
			expect(bed.sandbox.requests().filter((request) => request.path === collection.path)).toHaveLength(1);
		});

		it('a Limit past the first page returns exactly the Limit', async () => {
			const { all, cap } = await collectionOfSeveralPages();
			const limit = Math.min(all.length, cap + 1);
			const result = await bed.harness.runNode({
				type: declared.node,
				credentialId: bed.credentialId,
				parameters: parametersFor(declared, bed.sandbox.seed, { returnAll: false, limit }),
			});
			expect(result.error?.message).toBeUndefined();
			expect(result.items).toHaveLength(limit);
			expect(new Set(result.items.map(identity)).size).toBe(limit);
		});
	},
);

/** Every ID field an operation shows that fills a `{placeholder}` of its URL. */
const idFields = operations.flatMap((declared) =>
	declared.shown
		.filter((property) => property.type === 'resourceLocator' && PATH_PARAMETERS[property.name] !== undefined)
		.map((property) => [`${declared.title} › ${property.displayName}`, declared, property] as const),
);

describe('Every ID field refuses an ID AWeber cannot have before any request', () => {
	it.each(idFields)('%s', async (_title, declared, property) => {
		const result = await bed.harness.runNode({
			type: declared.node,
			credentialId: bed.credentialId,
			parameters: parametersFor(declared, bed.sandbox.seed, {
				[property.name]: { __rl: true, mode: 'id', value: '={{ "12/../34" }}' },
				email: 'someone@example.com',
			}),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain(`"${PATH_PARAMETERS[property.name].label}"`);
		expect(bed.sandbox.requests()).toEqual([]);
	});
});

/** A property and the properties inside it (the options of a collection, the values of a fixed collection). */
function withNested(property: INodeProperties): INodeProperties[] {
	const inside = ((property.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap((option) =>
		'values' in option && Array.isArray(option.values) ? option.values : 'type' in option ? [option as INodeProperties] : [],
	);
	return [property, ...inside.flatMap(withNested)];
}

/** Every picker (a locator's From List search) of every operation, once per node, resource and search method. */
const pickers = [
	...new Map(
		operations.flatMap((declared) =>
			declared.shown.flatMap(withNested).flatMap((property) =>
				(property.modes ?? [])
					.map((mode) => mode.typeOptions?.searchListMethod)
					.filter((method): method is string => typeof method === 'string')
					.map((method) => [`${declared.nodeType.description.displayName} ${declared.resource ?? ''} › ${property.displayName} (${method})`, [declared, method] as const] as const),
			),
		),
	).entries(),
].map(([title, [declared, method]]) => [title, declared, method] as const);

/** A picker's search as the editor runs it, with the operation's parameters (IDs of the seed). */
async function searchPicker(declared: DeclaredOperation, method: string): Promise<INodeListSearchResult> {
	const node = bed.harness.toNode({ type: declared.node, credentialId: bed.credentialId, parameters: parametersFor(declared, bed.sandbox.seed) }, 'Node Under Test');
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
	const additionalData = { credentialsHelper: bed.harness.credentials } as unknown as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	const search = declared.nodeType.methods?.listSearch?.[method] as (this: ILoadOptionsFunctions) => Promise<INodeListSearchResult>;
	return await search.call(context);
}

describe('Every picker links to a page a person can open, or to nothing (never the API)', () => {
	it('covers every search method of every node', () => {
		const registered = new Set(operations.flatMap((declared) => Object.keys(declared.nodeType.methods?.listSearch ?? {})));
		expect(new Set(pickers.map(([, , method]) => method))).toEqual(registered);
	});

	it.each(pickers)('%s', async (_title, declared, method) => {
		const found = await searchPicker(declared, method);
		expect(found.results.length).toBeGreaterThan(0);
		const links = found.results.map((result) => result.url).filter((url): url is string => url !== undefined);
		for (const link of links) {
			expect(link.startsWith(bed.sandbox.apiBaseUrl)).toBe(false);
			expect(new URL(link).hostname).not.toBe('api.aweber.com');
		}
	});

	it('every By URL field says which URL it takes: the API link of the entry (self_link)', () => {
		const urlModes = operations.flatMap((declared) =>
			declared.shown.flatMap(withNested).flatMap((property) => (property.modes ?? []).filter((mode) => mode.name === 'url').map((mode) => ({ property, mode }))),
		);
		expect(urlModes.length).toBeGreaterThan(0);
		for (const { property, mode } of urlModes) {
			expect(`${property.displayName}: ${mode.hint ?? ''}`).toMatch(/API link, as AWeber's answers give it in "self_link" \(https:\/\/api\.aweber\.com\/1\.0\/.+\), not the address of a page in AWeber's web app$/);
		}
	});

	it('a published landing page links to its address, a draft to nothing', async () => {
		const landingPage = operations.find((declared) => declared.node === 'aWeberLandingPage' && declared.operation === 'get')!;
		expect((await searchPicker(landingPage, 'searchLandingPages')).results.map((result) => result.url)).toEqual([
			'https://sandbox-outfitters.example/lp/spring-launch',
			undefined,
		]);
	});
});
