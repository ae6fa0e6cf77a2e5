import type { INodeProperties } from 'n8n-workflow';

import { splitTestGetDescription } from './get';
import { splitTestGetManyDescription } from './getAll';
import { splitTestGetManyForAccountDescription } from './getAllForAccount';

export const SPLIT_TESTS = '/accounts/{accountId}/lists/{listId}/web_form_split_tests';

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
	...splitTestGetDescription,
	...splitTestGetManyDescription,
	...splitTestGetManyForAccountDescription,
];
