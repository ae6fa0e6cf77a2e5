import type { IDataObject, ILoadOptionsFunctions, INodeProperties, INodePropertyCollection, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import { useTestbed } from '../harness/aweber';
import { PACKAGE_PREFIX } from '../harness';
import { apiCalls, callEditorMethod as callEditor, listPath, newsletterScope } from './email-nodes.helpers';

const bed = useTestbed({ resetEachTest: false });

const callEditorMethod = async <T>(type: string, kind: 'listSearch' | 'loadOptions', method: string, parameters: IDataObject, ...args: unknown[]) =>
	await callEditor<T>(bed, type, kind, method, parameters, ...args);

interface SearchResult {
	results: Array<{ name: string; value: string | number; url?: string }>;
	paginationToken?: unknown;
}

const subscriberParameters = () => ({ ...newsletterScope(bed), operation: 'get' });

describe('subscriber picker', () => {
	it('offers the list\'s subscribers, newest first, with their status when not subscribed', async () => {
		const found = await callEditorMethod<SearchResult>('aWeberSubscriber', 'listSearch', 'searchSubscribers', subscriberParameters());
		expect(found.results).toHaveLength(20);
		expect(found.results[0]).toEqual({
			name: 'Annie Easley <annie.easley@example.com> (unsubscribed)',
			value: expect.stringMatching(/^\d+$/),
		});
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ path: `${listPath(bed)}/subscribers`, query: { sort_order: 'desc', 'ws.size': '100' } }),
		]);
	});

	it('looks a typed address up with AWeber\'s find', async () => {
		const found = await callEditorMethod<SearchResult>(
			'aWeberSubscriber',
			'listSearch',
			'searchSubscribers',
			subscriberParameters(),
			'grace.hopper@example.com',
		);
		expect(found.results.map((result) => result.name)).toEqual(['Grace Hopper <grace.hopper@example.com>']);
		expect(apiCalls(bed)[0].query).toMatchObject({ 'ws.op': 'find', email: 'grace.hopper@example.com' });
	});

	it('filters by typed name', async () => {
		const found = await callEditorMethod<SearchResult>('aWeberSubscriber', 'listSearch', 'searchSubscribers', subscriberParameters(), 'hopper');
		expect(found.results.map((result) => result.name)).toEqual(['Grace Hopper <grace.hopper@example.com>']);
	});

	it('asks for the list first', async () => {
		await expect(
			callEditorMethod('aWeberSubscriber', 'listSearch', 'searchSubscribers', { ...subscriberParameters(), listId: { __rl: true, mode: 'list', value: '' } }),
		).rejects.toThrow(/Choose a List first/);
	});
});

describe('list picker', () => {
	it('offers every list of the account, and what is typed finds lists by name with AWeber\'s find', async () => {
		const all = await callEditorMethod<SearchResult>('aWeberSubscriber', 'listSearch', 'searchLists', subscriberParameters());
		expect(all.results.map((result) => result.name)).toEqual(expect.arrayContaining(['Newsletter', 'Customers', 'Bulk']));
		expect(apiCalls(bed).at(-1)?.query).toEqual({ 'ws.size': '100' });

		const typed = await callEditorMethod<SearchResult>('aWeberSubscriber', 'listSearch', 'searchLists', subscriberParameters(), 'customers');
		expect(typed.results).toEqual([{ name: 'Customers', value: String(bed.sandbox.seed.lists.customers) }]);
		expect(apiCalls(bed).at(-1)?.query).toEqual({ 'ws.op': 'find', name: 'customers', 'ws.size': '100' });
	});
});

describe('a picker before a credential is chosen', () => {
	it('says so with n8n\'s own message, without asking AWeber', async () => {
		const nodeType = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}aWeberSubscriber`);
		const node = bed.harness.toNode({ type: 'aWeberSubscriber', parameters: subscriberParameters() }, 'Node Under Test');
		expect(node.credentials).toBeUndefined();
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
		const additionalData = { credentialsHelper: bed.harness.credentials } as unknown as IWorkflowExecuteAdditionalData;
		const searchLists = nodeType.methods?.listSearch?.searchLists as unknown as (this: ILoadOptionsFunctions) => Promise<unknown>;
		const before = apiCalls(bed).length;
		await expect(searchLists.call(new LoadOptionsContext(workflow, node, additionalData, 'parameters'))).rejects.toThrow(
			'Node does not have any credentials set',
		);
		expect(apiCalls(bed)).toHaveLength(before);
	});
});

describe('custom field picker and name options', () => {
	it('offers the list\'s custom fields by ID', async () => {
		const found = await callEditorMethod<SearchResult>('aWeberCustomField', 'listSearch', 'searchCustomFields', {
			...newsletterScope(bed),
			operation: 'get',
		});
		const { customFields } = bed.sandbox.seed;
		expect(found.results.map((result) => [result.name, result.value])).toEqual([
			['Company', String(customFields.company)],
			['Plan', String(customFields.plan)],
			['Birthday', String(customFields.birthday)],
		]);
	});

	it('offers the custom field names of the chosen list for subscriber values', async () => {
		const options = await callEditorMethod<Array<{ name: string; value: string }>>(
			'aWeberSubscriber',
			'loadOptions',
			'getCustomFieldNames',
			{ ...newsletterScope(bed, bed.sandbox.seed.lists.customers), operation: 'create' },
		);
		expect(options).toEqual([
			{ name: 'Company', value: 'Company' },
			{ name: 'Plan', value: 'Plan' },
		]);
	});
});

describe('tag options', () => {
	it('offers the list\'s tags, sorted', async () => {
		const options = await callEditorMethod<Array<{ name: string; value: string }>>('aWeberSubscriber', 'loadOptions', 'getListTags', {
			...newsletterScope(bed),
			operation: 'create',
		});
		expect(options.map((option) => option.value)).toEqual(['customer', 'trial', 'vip', 'webinar']);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ path: `${listPath(bed)}/tags` })]);
	});
});

describe('tag and field name boxes before a list is chosen', () => {
	const noList = () => ({ ...newsletterScope(bed), listId: { __rl: true, mode: 'list', value: '' }, operation: 'create' });

	it.each(['getListTags', 'getCustomFieldNames'])('%s says to choose a list first, without asking AWeber', async (method) => {
		const options = await callEditorMethod<Array<{ name: string; value: string }>>('aWeberSubscriber', 'loadOptions', method, noList());
		expect(options).toEqual([{ name: 'Choose a List First', value: '' }]);
		expect(apiCalls(bed)).toEqual([]);
	});

	it.each(['getListTags', 'getCustomFieldNames'])('%s offers the list\'s options once a list is chosen', async (method) => {
		const options = await callEditorMethod<Array<{ name: string; value: string }>>('aWeberSubscriber', 'loadOptions', method, {
			...newsletterScope(bed, bed.sandbox.seed.lists.customers),
			operation: 'create',
		});
		expect(options.length).toBeGreaterThan(0);
		expect(options.map((option) => option.name)).not.toContain('Choose a List First');
	});

	it('every box that lists the chosen list\'s tags or fields reloads when the list changes', () => {
		const nodeType = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}aWeberSubscriber`);
		const boxes: INodeProperties[] = [];
		const visit = (properties: Array<INodeProperties | INodePropertyCollection>) => {
			for (const property of properties) {
				if ('type' in property && typeof property.typeOptions?.loadOptionsMethod === 'string') boxes.push(property);
				if ('options' in property && Array.isArray(property.options)) visit(property.options as Array<INodeProperties | INodePropertyCollection>);
				if ('values' in property && Array.isArray(property.values)) visit(property.values);
			}
		};
		visit(nodeType.description.properties);
		expect(boxes.length).toBeGreaterThan(5);
		for (const box of boxes) {
			expect({ name: box.name, dependsOn: box.typeOptions?.loadOptionsDependsOn }).toEqual({
				name: box.name,
				dependsOn: expect.arrayContaining(['listId.value']),
			});
		}
	});
});
