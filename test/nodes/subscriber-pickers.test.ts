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

describe('account picker', () => {
	const accountId = () => bed.sandbox.seed.accountId;

	it('names the account by its company and ID, and finds it by what is typed, in any case', async () => {
		const all = await callEditorMethod<SearchResult>('aWeberAccount', 'listSearch', 'searchAccounts', { operation: 'get' });
		expect(all.results).toEqual([{ name: `Sandbox Outfitters (${accountId()})`, value: String(accountId()) }]);
		const typed = await callEditorMethod<SearchResult>('aWeberAccount', 'listSearch', 'searchAccounts', { operation: 'get' }, 'OUTFITTERS');
		expect(typed.results.map((result) => result.value)).toEqual([String(accountId())]);
		const other = await callEditorMethod<SearchResult>('aWeberAccount', 'listSearch', 'searchAccounts', { operation: 'get' }, 'nothing like it');
		expect(other.results).toEqual([]);
	});

	it('finds the account by its ID, or by a name with spaces around it, as the other pickers do', async () => {
		for (const typed of [String(accountId()), '  Outfitters ']) {
			const found = await callEditorMethod<SearchResult>('aWeberAccount', 'listSearch', 'searchAccounts', { operation: 'get' }, typed);
			expect(found.results.map((result) => result.value)).toEqual([String(accountId())]);
		}
	});

	it('names an account without company by its ID', async () => {
		bed.sandbox.faults.next(1, 'answer', { body: { entries: [{ id: 42, self_link: 'x' }] }, pathPrefix: '/1.0/accounts' });
		const all = await callEditorMethod<SearchResult>('aWeberAccount', 'listSearch', 'searchAccounts', { operation: 'get' });
		expect(all.results).toEqual([{ name: 'Account 42', value: '42' }]);
	});
});

describe('the account a picker searches', () => {
	const listsOf = async (account: unknown) =>
		await callEditorMethod<SearchResult>('aWeberSubscriber', 'listSearch', 'searchLists', {
			operation: 'get',
			accountId: { __rl: true, mode: 'id', value: account },
		});
	const paths = () => apiCalls(bed).map((call) => call.path);

	it.each([
		['blank', '   '],
		['given by an expression that gives nothing', '={{ undefined }}'],
		['given by an expression that gives null', '={{ null }}'],
	])('is the credential\'s account when the Account field is %s', async (_case, account) => {
		expect((await listsOf(account)).results.length).toBeGreaterThan(0);
		expect(paths()).toEqual(['/1.0/accounts', `/1.0/accounts/${bed.sandbox.seed.accountId}/lists`]);
	});

	it('is the one typed, spaces around it left out', async () => {
		expect((await listsOf(` ${bed.sandbox.seed.accountId} `)).results.length).toBeGreaterThan(0);
		expect(paths()).toEqual([`/1.0/accounts/${bed.sandbox.seed.accountId}/lists`]);
	});

	it('cannot be found when the credential has no account: says so', async () => {
		bed.sandbox.faults.next(1, 'answer', { body: { entries: [] }, pathPrefix: '/1.0/accounts' });
		await expect(listsOf('')).rejects.toThrow('The AWeber credential has no account');
		expect(paths()).toEqual(['/1.0/accounts']);
	});
});

describe('a picker\'s parent field (the list, campaign or split test it searches in)', () => {
	const components = async (splitTest: unknown) =>
		await callEditorMethod<SearchResult>('aWeberWebform', 'listSearch', 'searchSplitTestComponents', {
			...newsletterScope(bed),
			resource: 'splitTestComponent',
			operation: 'get',
			splitTestId: { __rl: true, mode: 'id', value: splitTest },
		});
	const componentsPath = () => `${listPath(bed)}/web_form_split_tests/${bed.sandbox.seed.splitTests.newsletter}/components`;

	it('is taken as a number from an expression, or as typed with spaces around it left out', async () => {
		for (const value of [`={{ ${bed.sandbox.seed.splitTests.newsletter} }}`, ` ${bed.sandbox.seed.splitTests.newsletter} `]) {
			expect((await components(value)).results).toHaveLength(2);
		}
		expect(apiCalls(bed).map((call) => call.path)).toEqual([componentsPath(), componentsPath()]);
	});

	it.each([
		['blank', '   '],
		['given by an expression that gives nothing', '={{ undefined }}'],
		['given by an expression that gives null', '={{ null }}'],
	])('when %s, is asked for, naming it, before anything is sent', async (_case, splitTest) => {
		await expect(components(splitTest)).rejects.toMatchObject({
			message: 'Choose a Split Test first',
			description: 'The "Split Test" field must be set before this list can be loaded.',
		});
		expect(apiCalls(bed)).toEqual([]);
	});
});

describe('subscriber picker: a typed address', () => {
	it('is looked up without the spaces around it', async () => {
		const found = await callEditorMethod<SearchResult>(
			'aWeberSubscriber',
			'listSearch',
			'searchSubscribers',
			subscriberParameters(),
			'  grace.hopper@example.com ',
		);
		expect(found.results.map((result) => result.name)).toEqual(['Grace Hopper <grace.hopper@example.com>']);
		expect(apiCalls(bed)[0].query).toMatchObject({ 'ws.op': 'find', email: 'grace.hopper@example.com' });
	});
});
