import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators, shownFor } from '../../../shared/listScope';
import { accountCollectionFields, listCollectionFields } from '../listOrAccount';
import { splitTestLocator } from '../locators';

export const SPLIT_TESTS = '/accounts/{accountId}/lists/{listId}/web_form_split_tests';
const showOnlyForSplitTestGet = { resource: ['splitTest'], operation: ['get'] };
const showOnlyForSplitTestGetMany = { resource: ['splitTest'], operation: ['getAll'] };
const showOnlyForSplitTestGetManyForAccount = { resource: ['splitTest'], operation: ['getAllForAccount'] };

export const splitTestOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['splitTest'] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a split test',
			description: 'Get one web form split test of a list',
			routing: { request: { method: 'GET', url: `${SPLIT_TESTS}/{splitTestId}` } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many split tests of a list',
			description: 'Get the web form split tests of a list',
			routing: { request: { method: 'GET', url: SPLIT_TESTS } },
		},
		{
			name: 'Get Many for Account',
			value: 'getAllForAccount',
			action: 'Get many split tests of the account',
			description: 'Get the web form split tests of every list of the account',
			routing: {
				request: { method: 'GET', url: '/accounts/{accountId}', qs: { 'ws.op': 'getWebFormSplitTests', 'ws.start': 0 } },
			},
		},
	],
	default: 'getAll',
};

export const splitTestDescription: INodeProperties[] = [
	splitTestOperations,
	...listScopeLocators(showOnlyForSplitTestGet),
	shownFor(splitTestLocator, showOnlyForSplitTestGet),
	...listCollectionFields(showOnlyForSplitTestGetMany),
	...accountCollectionFields(showOnlyForSplitTestGetManyForAccount),
];
