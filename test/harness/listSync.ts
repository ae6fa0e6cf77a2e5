// The "Keep a list in sync" example (examples/keep-list-in-sync.json) in the harness, and the check that a list
// holds what a source says, field by field. Used by test/nodes/list-sync.test.ts and the benchmark (bench/listSync.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IConnections, IDataObject, INode, INodeType, IVersionedNodeType } from 'n8n-workflow';
import { request } from 'undici';

import type { N8nHarness } from './index';

/** A contact of the source, as the example's stand-in gives them. */
export interface SourceContact {
	email: string;
	firstName: string;
	lastName: string;
	company: string;
	plan: string;
	tags: string[];
}

export const SYNC_EXAMPLE_FILE = path.resolve(__dirname, '../../examples/keep-list-in-sync.json');
const TRIGGER_NAME = 'When clicking ‘Execute workflow’';
const SOURCE_NAME = 'CRM contacts (sample)';
export const SYNC_NODES = {
	read: 'Subscribers on AWeber',
	compare: 'Compare by email',
	create: 'Add new subscribers',
	update: 'Update changed subscribers',
	unsubscribe: 'Unsubscribe removed contacts',
};

/** The example's sample source: what its stand-in Code node returns (the node's code run here as n8n runs it). */
export function exampleSource(): SourceContact[] {
	const workflow = JSON.parse(readFileSync(SYNC_EXAMPLE_FILE, 'utf8')) as { nodes: INode[] };
	const code = String(workflow.nodes.find((node) => node.name === SOURCE_NAME)?.parameters.jsCode);
	// eslint-disable-next-line @typescript-eslint/no-implied-eval
	return (new Function(code)() as Array<{ json: SourceContact }>).map((item) => item.json);
}

/** The n8n-nodes-base nodes the example uses, registered in the harness at the version the example names. */
function registerBaseNode(harness: N8nHarness, type: string, file: string, exportName: string, version: number): void {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = (require(`n8n-nodes-base/dist/nodes/${file}`) as Record<string, new () => INodeType | IVersionedNodeType>)[exportName];
	const node = new exported();
	harness.nodeTypes.register(type, 'nodeVersions' in node ? (node.nodeVersions[version] as INodeType) : node);
}

export interface SyncWorkflowOptions {
	credentialId: string;
	listId: number;
	accountId: number;
	/** Switch the Unsubscribe branch on (it is off in the example). */
	unsubscribe?: boolean;
	/** Leave out the Update node, as if changed contacts were not written (shows that the check catches it). */
	withoutUpdate?: boolean;
	/** The source gives no items (the trigger gives one, as in n8n; the source's stand-in keeps none of it). */
	emptySource?: boolean;
}

/** A Filter that keeps no item: the stand-in of a source that came back empty. */
const NOTHING_PASSES = {
	conditions: {
		options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
		conditions: [{ id: 'never', leftValue: '={{ false }}', rightValue: '', operator: { type: 'boolean', operation: 'true', singleValue: true } }],
		combinator: 'and',
	},
	options: {},
};

/**
 * The example as the harness runs it: the manual trigger and the CRM stand-in become pass-through nodes, so the
 * source contacts are the run's input items; everything else (the Edit Fields shape, Compare Datasets, the AWeber
 * nodes and their expressions) is the example's own.
 */
export function syncWorkflow(harness: N8nHarness, options: SyncWorkflowOptions): { nodes: INode[]; connections: IConnections; startNode: string } {
	const workflow = JSON.parse(readFileSync(SYNC_EXAMPLE_FILE, 'utf8')) as { nodes: INode[]; connections: IConnections };
	registerBaseNode(harness, 'n8n-nodes-base.noOp', 'NoOp/NoOp.node.js', 'NoOp', 1);
	registerBaseNode(harness, 'n8n-nodes-base.set', 'Set/Set.node.js', 'Set', 3.4);
	registerBaseNode(harness, 'n8n-nodes-base.filter', 'Filter/Filter.node.js', 'Filter', 2.2);
	registerBaseNode(harness, 'n8n-nodes-base.compareDatasets', 'CompareDatasets/CompareDatasets.node.js', 'CompareDatasets', 2.3);
	const locator = (value: number) => ({ __rl: true, mode: 'id', value: String(value) });
	const nodes = workflow.nodes
		.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
		.filter((node) => !(options.withoutUpdate && node.name === SYNC_NODES.update))
		.map((node): INode => {
			if (node.name === SOURCE_NAME && options.emptySource) return { ...node, type: 'n8n-nodes-base.filter', typeVersion: 2.2, parameters: NOTHING_PASSES };
			if (node.name === TRIGGER_NAME || node.name === SOURCE_NAME) return { ...node, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
			if (!node.type.startsWith('n8n-nodes-aweber.')) return node;
			return {
				...node,
				disabled: node.name === SYNC_NODES.unsubscribe ? !options.unsubscribe : node.disabled,
				parameters: { ...node.parameters, accountId: locator(options.accountId), listId: locator(options.listId) },
				credentials: { aWeberOAuth2Api: { id: options.credentialId, name: `AWeber ${options.credentialId}` } },
			};
		});
	return { nodes, connections: workflow.connections, startNode: TRIGGER_NAME };
}

/** A subscriber as stored, read through AWeber's API (every page), outside the nodes. */
export interface StoredSubscriber {
	email: string;
	name: string | null;
	status: string;
	tags: string[];
	custom_fields: Record<string, string | null>;
}

export async function readList(apiBaseUrl: string, accessToken: string, accountId: number, listId: number): Promise<StoredSubscriber[]> {
	const all: StoredSubscriber[] = [];
	let next: string | undefined = `${apiBaseUrl}/1.0/accounts/${accountId}/lists/${listId}/subscribers?ws.size=100`;
	while (next) {
		const answer = await request(next, { headers: { authorization: `Bearer ${accessToken}` } });
		const page = (await answer.body.json()) as { entries?: StoredSubscriber[]; next_collection_link?: string };
		if (answer.statusCode !== 200 || !Array.isArray(page.entries)) throw new Error(`readList: ${next} answered ${answer.statusCode}: ${JSON.stringify(page).slice(0, 300)}`);
		all.push(...page.entries);
		next = page.next_collection_link;
	}
	return all;
}

export interface SyncCheck {
	/** Source contacts with no subscriber on the list. */
	lost: string[];
	/** Subscribers whose name, custom fields, tags or status are not what the source (or the list before) says. */
	wrong: Array<{ email: string; field: string; expected: unknown; stored: unknown }>;
}

/**
 * Whether the list holds the source: every contact a subscriber (address matched ignoring case, as AWeber does)
 * with its name, each custom field (empty as empty), its tags as a set; and every subscriber not in the source as
 * it was before (`before`), or unsubscribed when the sync unsubscribes removed contacts.
 */
export function checkListAgainstSource(
	stored: StoredSubscriber[],
	source: SourceContact[],
	before: StoredSubscriber[],
	options: { unsubscribeRemoved: boolean },
): SyncCheck {
	const key = (email: string) => email.trim().toLowerCase();
	const byEmail = new Map(stored.map((subscriber) => [key(subscriber.email), subscriber]));
	const result: SyncCheck = { lost: [], wrong: [] };
	const compare = (email: string, field: string, expected: unknown, actual: unknown) => {
		if (JSON.stringify(expected) !== JSON.stringify(actual)) result.wrong.push({ email, field, expected, stored: actual });
	};
	const text = (value: string | null | undefined) => (value === null || value === undefined ? '' : value);
	const inSource = new Set<string>();
	for (const contact of source) {
		inSource.add(key(contact.email));
		const subscriber = byEmail.get(key(contact.email));
		if (!subscriber) {
			result.lost.push(contact.email);
			continue;
		}
		compare(contact.email, 'name', [contact.firstName, contact.lastName].filter(Boolean).join(' '), text(subscriber.name));
		compare(contact.email, 'custom_fields.Company', contact.company, text(subscriber.custom_fields.Company));
		compare(contact.email, 'custom_fields.Plan', contact.plan, text(subscriber.custom_fields.Plan));
		compare(contact.email, 'tags', [...new Set(contact.tags)].sort(), [...subscriber.tags].sort());
	}
	for (const earlier of before) {
		if (inSource.has(key(earlier.email))) continue;
		const subscriber = byEmail.get(key(earlier.email));
		if (!subscriber) {
			result.lost.push(earlier.email);
			continue;
		}
		const expected = options.unsubscribeRemoved ? { ...earlier, status: 'unsubscribed' } : earlier;
		for (const field of ['name', 'status', 'tags', 'custom_fields'] as const) compare(earlier.email, field, expected[field], subscriber[field]);
	}
	return result;
}

/** The harness's run of the example over a source, with its items per branch. */
export async function runSync(harness: N8nHarness, source: SourceContact[], options: SyncWorkflowOptions) {
	const emptySource = source.length === 0;
	const { nodes, connections, startNode } = syncWorkflow(harness, { ...options, emptySource });
	const inputItems = emptySource ? [{}] : (source as unknown as IDataObject[]);
	return await harness.run({ nodes, connections, settings: { executionOrder: 'v1' } }, { startNode, inputItems });
}
