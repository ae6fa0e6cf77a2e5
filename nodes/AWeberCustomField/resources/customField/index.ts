import type { INodeProperties } from 'n8n-workflow';

import { reportDeleted } from '../../../shared/deletedResult';
import { customFieldCreateDescription } from './create';
import { customFieldDeleteDescription } from './delete';
import { customFieldGetDescription } from './get';
import { customFieldGetManyDescription } from './getAll';
import { followLocation } from './hooks';
import { customFieldUpdateDescription } from './update';

const customFieldUrl = '/accounts/{accountId}/lists/{listId}/custom_fields/{customFieldId}';

export const customFieldOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Add a custom field to a list',
			description: 'Add a custom field to the list and output it',
			routing: {
				// AWeber creates custom fields from a form body carrying ws.op=create; it answers 201 + Location.
				request: {
					method: 'POST',
					url: '/accounts/{accountId}/lists/{listId}/custom_fields',
					headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
					body: { 'ws.op': 'create' },
				},
				output: { postReceive: [followLocation] },
			},
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a custom field',
			description: 'Delete the custom field and every subscriber\'s value for it',
			routing: {
				request: { method: 'DELETE', url: customFieldUrl },
				output: { postReceive: [reportDeleted] },
			},
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a custom field',
			description: 'Get one custom field of the list',
			routing: { request: { method: 'GET', url: customFieldUrl } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many custom fields',
			description: 'Get the custom fields of the list, sorted by ID',
			routing: { request: { method: 'GET', url: '/accounts/{accountId}/lists/{listId}/custom_fields' } },
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a custom field',
			description: 'Rename the custom field, or choose whether subscribers may change it',
			routing: { request: { method: 'PATCH', url: customFieldUrl } },
		},
	],
	default: 'getAll',
};

export const customFieldDescription: INodeProperties[] = [
	customFieldOperations,
	...customFieldGetManyDescription,
	...customFieldGetDescription,
	...customFieldCreateDescription,
	...customFieldUpdateDescription,
	...customFieldDeleteDescription,
];
