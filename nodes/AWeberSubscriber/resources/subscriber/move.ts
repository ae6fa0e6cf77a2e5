import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listLocator, simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { subscriberLocator } from '../../../shared/subscriberLocator';
import { lastFollowupField } from './fields';
import { simplifySubscribers } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	subscriberLocator,
	{
		...listLocator,
		name: 'destinationListId',
		displayName: 'Destination List',
		description: 'The list to move the subscriber to',
	},
	simplifyToggle(simplifySubscribers),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
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

export const subscriberMoveDescription = updateDisplayOptions({ show: { operation: ['move'] } }, properties);
