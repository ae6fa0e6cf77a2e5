import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging, simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { sortOrderOption } from './getAll';
import { simplifySubscribers } from './hooks';
import { searchFilters } from './searchFilters';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	searchFilters({ listChosen: true }),
	...collectionPaging(),
	simplifyToggle(simplifySubscribers),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
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

export const subscriberFindDescription = updateDisplayOptions({ show: { operation: ['find'] } }, properties);
