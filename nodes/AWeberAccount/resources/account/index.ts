import type { INodeProperties } from 'n8n-workflow';

import { accountGetDescription } from './get';
import { accountGetManyDescription } from './getAll';

export const accountOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get an account',
			description: 'Get the AWeber account: company, links to its lists and integrations',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}' } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many accounts',
			description: 'Get the accounts the credential can reach (the account that authorized it)',
			routing: { request: { method: 'GET', url: '/accounts' } },
		},
	],
	default: 'get',
};

export const accountDescription: INodeProperties[] = [
	accountOperations,
	...accountGetDescription,
	...accountGetManyDescription,
];
