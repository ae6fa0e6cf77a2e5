import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging, simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { shapeForComparison, simplifySubscribers } from './hooks';

export const sortOrderOption: INodeProperties = {
	displayName: 'Sort Order',
	name: 'sortOrder',
	type: 'options',
	options: [
		{ name: 'Oldest First', value: 'asc' },
		{ name: 'Newest First', value: 'desc' },
	],
	default: 'asc',
	description: 'Order of the subscribers by the time they were added to the list',
	routing: { send: { type: 'query', property: 'sort_order' } },
};

const properties: INodeProperties[] = [
	...listScopeLocators(),
	...collectionPaging(),
	{
		displayName: 'Shape for Comparison',
		name: 'shapeForComparison',
		type: 'boolean',
		default: false,
		description:
			'Whether to output each subscriber as only email (lower case), name, tags (sorted) and every custom field (empty ones as ""), for n8n\'s Compare Datasets node in a sync',
		routing: { output: { postReceive: [shapeForComparison] } },
	},
	// The comparison shape keeps fewer fields than Simplify: Simplify has nothing to do then.
	{ ...simplifyToggle(simplifySubscribers), displayOptions: { hide: { shapeForComparison: [true] } } },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [sortOrderOption],
	},
];

export const subscriberGetManyDescription = updateDisplayOptions({ show: { operation: ['getAll'] } }, properties);
