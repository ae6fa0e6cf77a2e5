import type { INodeProperties } from 'n8n-workflow';

import { webFormGetDescription } from './get';
import { webFormGetManyDescription } from './getAll';
import { webFormGetManyForAccountDescription } from './getAllForAccount';

const WEB_FORMS = '/accounts/{accountId}/lists/{listId}/web_forms';

export const webFormOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['webForm'] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a web form',
			description: 'Get one sign-up form of a list with its displays, submissions and conversion rates',
			routing: { request: { method: 'GET', url: `${WEB_FORMS}/{webFormId}` } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many web forms of a list',
			description: 'Get the sign-up forms of a list',
			routing: { request: { method: 'GET', url: WEB_FORMS } },
		},
		{
			name: 'Get Many for Account',
			value: 'getAllForAccount',
			action: 'Get many web forms of the account',
			description: 'Get the sign-up forms of every list of the account',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}', qs: { 'ws.op': 'getWebForms', 'ws.start': 0 } } },
		},
	],
	default: 'getAll',
};

export const webFormDescription: INodeProperties[] = [
	webFormOperations,
	...webFormGetDescription,
	...webFormGetManyDescription,
	...webFormGetManyForAccountDescription,
];
