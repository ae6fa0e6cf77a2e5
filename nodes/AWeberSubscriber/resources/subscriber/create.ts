import type { INodeProperties } from 'n8n-workflow';

import { customFieldsProperty } from '../../../shared/customFields';
import { readAddedSubscriber } from './addedSubscriber';
import { listScopeLocators } from '../../../shared/listScope';
import { simplifySubscribers, simplifyToggle } from '../../../shared/simplify';
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
import { summarizeSubscriberAdd } from './requests';

type Show = Record<string, string[]>;

/**
 * The fields of a new subscriber, shared by Add and Upsert (only Add offers "Update Existing"), and what they
 * output: the subscriber read back (Simplify offered), or a summary of the request.
 */
export function newSubscriberFields(show: Show, options: { offerUpdateExisting: boolean; summaryHas: string }): INodeProperties[] {
	return [
		...listScopeLocators(show),
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			required: true,
			default: '',
			description: 'The subscriber\'s email address (up to 50 characters)',
			displayOptions: { show },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show },
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
			displayOptions: { show },
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
		addOutputProperty(show, { subscriber: readAddedSubscriber, summary: summarizeSubscriberAdd, summaryHas: options.summaryHas }),
		simplifyToggle({ ...show, output: ['subscriber'] }, simplifySubscribers),
	];
}

export const subscriberCreateDescription = newSubscriberFields(
	{ operation: ['create'] },
	{ offerUpdateExisting: true, summaryHas: "The subscriber's ID and link, the list and the fields sent" },
);
