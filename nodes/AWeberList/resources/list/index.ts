import type { INodeProperties } from 'n8n-workflow';

import { tagsAsItems } from '../../../shared/tags';
import { listFindDescription } from './find';
import { listGetDescription } from './get';
import { listGetManyDescription } from './getAll';
import { listGetTagsDescription } from './getTags';

export const listOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Find',
			value: 'find',
			action: 'Find lists by name or unique list ID',
			description: 'Find the lists whose name or unique list ID (awlist…) is the given text',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}/lists', qs: { 'ws.op': 'find' } } },
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a list',
			description: 'Get one list: name, unique list ID, subscriber counts and links',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}/lists/{listId}' } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many lists',
			description: 'Get the lists of the account',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}/lists' } },
		},
		{
			name: 'Get Tags',
			value: 'getTags',
			action: 'Get the tags of a list',
			description: 'Get the most used tags of the list\'s subscribers, one item per tag',
			routing: {
				request: { method: 'GET', url: '/accounts/{accountId}/lists/{listId}/tags' },
				output: { postReceive: [tagsAsItems] },
			},
		},
	],
	default: 'getAll',
};

export const listDescription: INodeProperties[] = [
	listOperations,
	...listGetDescription,
	...listGetManyDescription,
	...listFindDescription,
	...listGetTagsDescription,
];
