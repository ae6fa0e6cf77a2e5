// Shared by the broadcast, campaign, segment, webform and landing-page node tests.
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodeProperties, INodeType, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import type { AweberTestbed } from '../harness/aweber';
import { PACKAGE_PREFIX } from '../harness';
import type { RequestLogEntry } from '../sandbox/types';

export interface Locator {
	__rl: true;
	mode: string;
	value: string;
}

/** A resource locator value as n8n stores it. */
export function byId(value: string | number): Locator {
	return { __rl: true, mode: 'id', value: String(value) };
}

export function byUrl(url: string): Locator {
	return { __rl: true, mode: 'url', value: url };
}

/** Account and Newsletter list, the parents of nearly everything these nodes read. */
export function newsletterScope(bed: AweberTestbed, listId = bed.sandbox.seed.lists.newsletter): IDataObject {
	return { accountId: byId(bed.sandbox.seed.accountId), listId: byId(listId) };
}

/** Requests that reached the AWeber API (not OAuth), in order. */
export function apiCalls(bed: AweberTestbed): RequestLogEntry[] {
	return bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));
}

/** `METHOD path` of each API call, for call-sequence assertions. */
export function callLines(bed: AweberTestbed): string[] {
	return apiCalls(bed).map((entry) => `${entry.method} ${entry.path}`);
}

export function listPath(bed: AweberTestbed, listId = bed.sandbox.seed.lists.newsletter): string {
	return `/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${listId}`;
}

/** Runs one node of the given type with the testbed's credential. */
export async function run(
	bed: AweberTestbed,
	type: string,
	parameters: IDataObject,
	options: { items?: IDataObject[]; continueOnFail?: boolean; credentialId?: string } = {},
) {
	return await bed.harness.runNode(
		{ type, credentialId: options.credentialId ?? bed.credentialId, parameters, continueOnFail: options.continueOnFail },
		options.items,
	);
}

/** Calls a node's listSearch or loadOptions method as the n8n editor does: with the node's current parameters. */
export async function callEditorMethod<T>(
	bed: AweberTestbed,
	type: string,
	kind: 'listSearch' | 'loadOptions',
	method: string,
	parameters: IDataObject,
	...args: unknown[]
): Promise<T> {
	const nodeType = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}${type}`);
	const node = bed.harness.toNode({ type, credentialId: bed.credentialId, parameters }, 'Node Under Test');
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
	const additionalData = { credentialsHelper: bed.harness.credentials } as unknown as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	const fn = nodeType.methods?.[kind]?.[method] as unknown as (this: ILoadOptionsFunctions, ...args: unknown[]) => Promise<T>;
	return await fn.call(context, ...args);
}

/** Runs a picker's search as the n8n editor does. */
export async function searchPicker(
	bed: AweberTestbed,
	type: string,
	method: string,
	parameters: IDataObject,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await callEditorMethod<INodeListSearchResult>(bed, type, 'listSearch', method, parameters, filter, paginationToken);
}

/**
 * Registers a copy of a node whose Return All / Limit ask AWeber for `pageSize` entries per page instead of
 * 100, so the seed's few opens and clicks span several pages and the pager's following of
 * `next_collection_link` can be observed. Everything else is the real node.
 */
export function registerSmallPageVariant(bed: AweberTestbed, type: string, pageSize: number): string {
	const original = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}${type}`);
	const variantName = `${type}Pages${pageSize}`;
	const properties = original.description.properties.map((property) => {
		const send = property.routing?.send;
		if (!send || (property.name !== 'returnAll' && property.name !== 'limit')) return property;
		const value = property.name === 'returnAll' ? `={{ $value ? ${pageSize} : undefined }}` : `={{ Math.min($value, ${pageSize}) }}`;
		return { ...property, routing: { ...property.routing, send: { ...send, value } } } as INodeProperties;
	});
	const variant: INodeType = { ...original, description: { ...original.description, name: variantName, properties } };
	bed.harness.nodeTypes.register(`${PACKAGE_PREFIX}${variantName}`, variant);
	return variantName;
}

/** Runs one node in a workflow whose time zone setting is `timezone` (what `this.getTimezone()` reads). */
export async function runInTimeZone(bed: AweberTestbed, type: string, parameters: IDataObject, timezone: string) {
	const node = bed.harness.toNode({ type, credentialId: bed.credentialId, parameters }, 'Node Under Test');
	const result = await bed.harness.run(
		{ nodes: [node], connections: {}, settings: { timezone } },
		{ inputItems: [{}], startNode: node.name },
	);
	return Object.assign(result, { items: result.status === 'success' ? result.json(node.name) : [] });
}

/** A Track Purchase's fields AWeber requires, but the Email (each test names its buyer). */
export const PURCHASE_FIELDS = {
	operation: 'trackPurchase',
	ipAddress: '204.194.222.28',
	productName: 'Trail Jacket',
	value: 49.5,
	currency: 'usd',
	vendor: 'Sandbox Store',
	url: 'https://sandbox-outfitters.example/checkout',
	eventNote: 'Order 1001',
};
