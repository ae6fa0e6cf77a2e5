import type { INodeProperties } from 'n8n-workflow';

import { listLocator } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { simplifySubscribers, simplifyToggle } from '../../../shared/simplify';
import { subscriberLocator } from '../../../shared/subscriberLocator';
import { lastFollowupField } from './fields';

const showOnlyForSubscriberMove = { operation: ['move'] };

export const subscriberMoveDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSubscriberMove),
	{ ...subscriberLocator, displayOptions: { show: showOnlyForSubscriberMove } },
	{
		...listLocator,
		name: 'destinationListId',
		displayName: 'Destination List',
		description: 'The list to move the subscriber to',
		displayOptions: { show: showOnlyForSubscriberMove },
	},
	simplifyToggle(showOnlyForSubscriberMove, simplifySubscribers),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForSubscriberMove },
		options: [
			{
				displayName: 'Enforce Custom Field Mapping',
				name: 'enforceCustomFieldMapping',
				type: 'boolean',
				default: false,
				description:
					'Whether to refuse the move when a custom field of the subscriber has no field of the same name (ignoring case) on the destination list',
				routing: { send: { type: 'body', property: 'enforce_custom_field_mapping' } },
			},
			{
				...lastFollowupField,
				description:
					'Where the subscriber starts in the destination list\'s follow-up series: 0 sends the first follow-up next, 1001 sends none',
			},
		],
	},
];
