import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, callLines, listPath, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed({ resetEachTest: false });

const webform = (parameters: IDataObject) => run(bed, 'aWeberWebform', { ...newsletterScope(bed), ...parameters });
const accountPath = () => `/1.0/accounts/${bed.sandbox.seed.accountId}`;

describe('AWeber Webform node: web forms', () => {
	it('gets the web forms of a list with their conversion figures', async () => {
		const result = await webform({ resource: 'webForm', operation: 'getAll', returnAll: true });
		expect(result.items.map((item) => item.name)).toEqual(['Sidebar signup', 'Exit popup', 'Blog lightbox']);
		expect(result.items[0]).toMatchObject({ total_displays: 1200, total_submissions: 40, conversion_percentage: expect.any(Number) });
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${listPath(bed)}/web_forms`, query: { 'ws.size': '100' } }),
		]);
	});

	it('gets the web forms of every list of the account with getWebForms', async () => {
		const result = await webform({ resource: 'webForm', operation: 'getAllForAccount', returnAll: true });
		expect(result.items.map((item) => item.name)).toContain('Checkout opt-in');
		expect(result.items).toHaveLength(4);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ path: accountPath(), query: { 'ws.op': 'getWebForms', 'ws.start': '0', 'ws.size': '100' } }),
		]);
	});

	it('stops at the Limit on the account-wide list too', async () => {
		const result = await webform({ resource: 'webForm', operation: 'getAllForAccount', limit: 2 });
		expect(result.items).toHaveLength(2);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ query: expect.objectContaining({ 'ws.size': '2' }) })]);
	});

	it('gets one web form', async () => {
		const id = bed.sandbox.seed.webForms.newsletter;
		const result = await webform({ resource: 'webForm', operation: 'get', webFormId: byId(id) });
		expect(result.items).toEqual([expect.objectContaining({ id, name: 'Sidebar signup' })]);
		expect(callLines(bed)).toEqual([`GET ${listPath(bed)}/web_forms/${id}`]);
	});
});

describe('AWeber Webform node: split tests and their components', () => {
	const splitTestId = () => byId(bed.sandbox.seed.splitTests.newsletter);
	const splitTestPath = () => `${listPath(bed)}/web_form_split_tests/${bed.sandbox.seed.splitTests.newsletter}`;

	it('gets the split tests of a list and of the account', async () => {
		const forList = await webform({ resource: 'splitTest', operation: 'getAll', returnAll: true });
		expect(forList.items).toEqual([
			expect.objectContaining({ id: bed.sandbox.seed.splitTests.newsletter, name: 'Sidebar vs popup' }),
			expect.objectContaining({ id: 902, name: 'Sidebar vs lightbox (ended)' }),
		]);
		const forAccount = await webform({ resource: 'splitTest', operation: 'getAllForAccount', returnAll: true });
		expect(forAccount.items).toEqual(forList.items);
		expect(apiCalls(bed).map((call) => [call.path, call.query])).toEqual([
			[`${listPath(bed)}/web_form_split_tests`, { 'ws.size': '100' }],
			[accountPath(), { 'ws.op': 'getWebFormSplitTests', 'ws.start': '0', 'ws.size': '100' }],
		]);
	});

	it('gets one split test', async () => {
		const result = await webform({ resource: 'splitTest', operation: 'get', splitTestId: splitTestId() });
		expect(result.items).toEqual([expect.objectContaining({ components_collection_link: expect.stringMatching(/\/components$/) })]);
		expect(callLines(bed)).toEqual([`GET ${splitTestPath()}`]);
	});

	it('gets the components of a split test and one component by its string ID', async () => {
		const { first, second } = bed.sandbox.seed.splitTestComponents;
		const all = await webform({ resource: 'splitTestComponent', operation: 'getAll', splitTestId: splitTestId(), returnAll: true });
		expect(all.items).toEqual([
			expect.objectContaining({ id: first, weight: 50, web_form_link: expect.any(String) }),
			expect.objectContaining({ id: second, weight: 50 }),
		]);
		const one = await webform({
			resource: 'splitTestComponent',
			operation: 'get',
			splitTestId: splitTestId(),
			splitTestComponentId: byId(second),
		});
		expect(one.items).toEqual([all.items[1]]);
		expect(callLines(bed)).toEqual([`GET ${splitTestPath()}/components`, `GET ${splitTestPath()}/components/${second}`]);
	});
});
