import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { customFieldsProperty } from '../../../shared/customFieldProperties';
import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { subscriberLocator } from '../../../shared/subscriberLocator';
import { tagsProperty } from '../../../shared/tags';
import { unsubscribeLimitOptions } from '../../../shared/unsubscribeLimit';
import {
	adTrackingField,
	ignoreUnknownCustomFieldsOption,
	lastFollowupField,
	miscNotesField,
	nameField,
	replaceAllCustomFieldsOption,
	strictCustomFieldsOption,
} from './fields';
import { simplifySubscribers } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	subscriberLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			adTrackingField,
			tagsProperty({
				name: 'addTags',
				displayName: 'Add Tag Names or IDs',
				purpose: 'Tags to add',
			}),
			customFieldsProperty(
				'Custom field values to set (names match ignoring case). The subscriber\'s other custom fields keep their values; an empty value clears a field. A name that is not a custom field of the list is an error listing the list\'s fields; to leave such names out as AWeber does, turn on "Ignore Unknown Custom Fields" under Options.',
			),
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'A new email address for the subscriber',
			},
			lastFollowupField,
			miscNotesField,
			nameField,
			tagsProperty({
				name: 'removeTags',
				displayName: 'Remove Tag Names or IDs',
				purpose: 'Tags to take off the subscriber',
			}),
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Subscribed', value: 'subscribed' },
					{ name: 'Unsubscribed', value: 'unsubscribed' },
				],
				default: 'subscribed',
				description: 'Subscribed or unsubscribed (AWeber does not allow setting "unconfirmed")',
				routing: { send: { type: 'body', property: 'status' } },
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [ignoreUnknownCustomFieldsOption, ...unsubscribeLimitOptions, replaceAllCustomFieldsOption, strictCustomFieldsOption],
	},
	simplifyToggle(simplifySubscribers),
];

export const subscriberUpdateDescription = updateDisplayOptions({ show: { operation: ['update'] } }, properties);
