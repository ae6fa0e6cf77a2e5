import type { INodeProperties } from 'n8n-workflow';

import { TRIMMED_TEXT, TRIMMED_TEXT_OR_NOTHING } from '../../../shared/fieldValidation';

export const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'The subscriber\'s name (up to 60 characters)',
	// AWeber refuses an empty name or ad tracking (minimum length 1), so those are sent only when given.
	routing: { send: { type: 'body', property: 'name', value: TRIMMED_TEXT_OR_NOTHING } },
};

export const adTrackingField: INodeProperties = {
	displayName: 'Ad Tracking',
	name: 'adTracking',
	type: 'string',
	default: '',
	description: 'Where the subscriber came from, for your reports (up to 20 characters; AWeber stores it in lower case)',
	routing: { send: { type: 'body', property: 'ad_tracking', value: TRIMMED_TEXT_OR_NOTHING } },
};

export const miscNotesField: INodeProperties = {
	displayName: 'Misc Notes',
	name: 'miscNotes',
	type: 'string',
	default: '',
	description: 'Notes about the subscriber (up to 60 characters)',
	routing: { send: { type: 'body', property: 'misc_notes', value: TRIMMED_TEXT } },
};

export const lastFollowupField: INodeProperties = {
	displayName: 'Last Follow-Up Message Number Sent',
	name: 'lastFollowupMessageNumberSent',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 1001 },
	default: 0,
	description:
		'Where the subscriber is in the follow-up series: 0 sends the first follow-up next, 1001 sends none',
	routing: { send: { type: 'body', property: 'last_followup_message_number_sent' } },
};

export const strictCustomFieldsOption: INodeProperties = {
	displayName: 'Strict Custom Fields',
	name: 'strictCustomFields',
	type: 'boolean',
	default: false,
	description:
		'Whether custom field names must match the list\'s fields exactly, including case (AWeber\'s strict_custom_fields). When off, names match ignoring case.',
};

/** AWeber's permissive mode, reachable on purpose: by default the node refuses a name the list does not have. */
export const ignoreUnknownCustomFieldsOption: INodeProperties = {
	displayName: 'Ignore Unknown Custom Fields',
	name: 'ignoreUnknownCustomFields',
	type: 'boolean',
	default: false,
	description:
		'Whether to send custom field names that are not fields of the list anyway, for AWeber to drop silently as it does by default. When off, such a name stops the item before anything is written, with an error naming it and listing the list\'s fields.',
};

/** The description of Custom Fields on Add and Create or Update (both have the option under Options). */
export const newSubscriberCustomFieldsDescription =
	'Values for the list\'s custom fields (names match ignoring case). A name that is not a custom field of the list is an error listing the list\'s fields; to leave such names out as AWeber does, turn on "Ignore Unknown Custom Fields" under Options.';
