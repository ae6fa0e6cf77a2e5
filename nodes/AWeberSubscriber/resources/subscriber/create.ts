import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { customFieldsProperty } from '../../../shared/customFieldProperties';
import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { tagsProperty } from '../../../shared/tags';
import {
	addOutputProperty,
	adTrackingField,
	ignoreUnknownCustomFieldsOption,
	lastFollowupField,
	miscNotesField,
	nameField,
	newSubscriberCustomFieldsDescription,
	strictCustomFieldsOption,
} from './fields';
import { readAddedSubscriber, simplifySubscribers, summarizeSubscriberAdd } from './hooks';

/**
 * The fields of a new subscriber, shared by Add and Upsert (only Add offers "Update Existing"), and what they
 * output: the subscriber read back (Simplify offered), or a summary of the request.
 */
export function newSubscriberFields(options: { offerUpdateExisting: boolean; summaryHas: string }): INodeProperties[] {
	return [
		...listScopeLocators(),
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			required: true,
			default: '',
			description: 'The subscriber\'s email address (up to 50 characters)',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				adTrackingField,
				customFieldsProperty(newSubscriberCustomFieldsDescription),
				{
					displayName: 'IP Address',
					name: 'ipAddress',
					type: 'string',
					default: '',
					placeholder: '204.194.222.28',
					description:
						'The public IP address the subscriber signed up from (AWeber uses it for location and send times; it can only be set when adding)',
				},
				lastFollowupField,
				miscNotesField,
				nameField,
				tagsProperty({
					name: 'tags',
					displayName: 'Tag Names or IDs',
					purpose: 'Tags to give the subscriber',
				}),
			],
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				ignoreUnknownCustomFieldsOption,
				strictCustomFieldsOption,
				...(options.offerUpdateExisting
					? [
							{
								displayName: 'Update Existing',
								name: 'updateExisting',
								type: 'boolean' as const,
								default: false,
								description:
									'Whether to update the subscriber when the address is already on the list (tags are added to theirs) instead of failing',
								routing: { send: { type: 'body' as const, property: 'update_existing', value: '={{ $value ? "true" : undefined }}' } },
							},
						]
					: []),
			],
		},
		addOutputProperty({ subscriber: readAddedSubscriber, summary: summarizeSubscriberAdd, summaryHas: options.summaryHas }),
		{ ...simplifyToggle(simplifySubscribers), displayOptions: { show: { output: ['subscriber'] } } },
	];
}

const properties = newSubscriberFields({
	offerUpdateExisting: true,
	summaryHas: "The subscriber's ID and link, the list and the fields sent",
});

export const subscriberCreateDescription = updateDisplayOptions({ show: { operation: ['create'] } }, properties);
