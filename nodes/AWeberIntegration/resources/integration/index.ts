import type { INodeProperties } from 'n8n-workflow';

import { integrationGetDescription } from './get';
import { integrationGetManyDescription } from './getAll';

export const integrationOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get an integration',
			description: 'Get one third-party integration of the account (Facebook, Twitter, PayPal, Shopify…)',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}/integrations/{integrationId}' } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many integrations',
			description: 'Get the third-party integrations connected to the account, sorted by ID',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}/integrations' } },
		},
	],
	default: 'getAll',
};

export const integrationDescription: INodeProperties[] = [
	integrationOperations,
	...integrationGetDescription,
	...integrationGetManyDescription,
];
