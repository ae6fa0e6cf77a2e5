import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { simplifySubscribers, simplifyToggle } from '../../../shared/simplify';
import { shapeForComparisonField } from './comparisonShape';

const showOnlyForSubscriberGetMany = { operation: ['getAll'] };

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

export const subscriberGetManyDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSubscriberGetMany),
	...collectionPaging(showOnlyForSubscriberGetMany),
	shapeForComparisonField(showOnlyForSubscriberGetMany),
	// The comparison shape keeps fewer fields than Simplify: Simplify has nothing to do then.
	{
		...simplifyToggle(showOnlyForSubscriberGetMany, simplifySubscribers),
		displayOptions: { show: showOnlyForSubscriberGetMany, hide: { shapeForComparison: [true] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForSubscriberGetMany },
		options: [sortOrderOption],
	},
];
