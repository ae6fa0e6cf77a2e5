import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { simplifySubscribers, simplifyToggle } from '../../../shared/simplify';
import { sortOrderOption } from './getAll';
import { searchFilters } from './searchFilters';

const showOnlyForSubscriberFind = { operation: ['find'] };

export const subscriberFindDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSubscriberFind),
	searchFilters(showOnlyForSubscriberFind, { listChosen: true }),
	...collectionPaging(showOnlyForSubscriberFind),
	simplifyToggle(showOnlyForSubscriberFind, simplifySubscribers),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForSubscriberFind },
		options: [
			{
				displayName: 'Sort By',
				name: 'sortKey',
				type: 'options',
				options: [
					{ name: 'Subscribed At', value: 'subscribed_at' },
					{ name: 'Unsubscribed At', value: 'unsubscribed_at' },
				],
				default: 'subscribed_at',
				description: 'The date the results are ordered by',
				routing: { send: { type: 'query', property: 'sort_key' } },
			},
			{ ...sortOrderOption, description: 'Oldest or newest first' },
		],
	},
];
