import type { INodeProperties, PostReceiveAction } from 'n8n-workflow';

import { BULK_ADD_ADVICE } from '../../../shared/bulkAdds';
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

/** What the summary output lacks, said on every operation that offers it. */
const SUMMARY_LACKS =
	'It lacks the status (which depends on the list\'s confirmed opt-in) and the fields AWeber computes (subscribe and verification times, location and the like)';

/**
 * Output of an operation that adds a subscriber, which AWeber answers with only the subscriber's link
 * (docs/aweber-behaviour.md#status-codes): the subscriber read from that link (2 calls), or a summary of the
 * request (1 call, so a run at AWeber's rate limit takes half the time). Each choice carries its postReceive. The
 * description says where the line is between a sync and an import (nodes/shared/bulkAdds.ts).
 */
export function addOutputProperty(output: { subscriber: PostReceiveAction; summary: PostReceiveAction; summaryHas: string }): INodeProperties {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'Request Summary (1 Call per Item)',
				value: 'summary',
				description: `${output.summaryHas}, without reading the subscriber back. ${SUMMARY_LACKS}.`,
				routing: { output: { postReceive: [output.summary] } },
			},
			{
				name: 'Subscriber From AWeber (2 Calls)',
				value: 'subscriber',
				description: 'The subscriber as AWeber stores it, read back after the request',
				routing: { output: { postReceive: [output.subscriber] } },
			},
		],
		default: 'subscriber',
		description: `What to output. The request summary saves the second call, so a run takes half the time under AWeber's rate limit. ${SUMMARY_LACKS}. ${BULK_ADD_ADVICE}.`,
	};
}

/**
 * Update's option "Replace All Custom Fields": the custom fields given are the subscriber's whole set. AWeber
 * replaces a subscriber's custom fields with what a PATCH sends (docs/aweber-behaviour.md#custom-fields-on-patch),
 * so without the option the Update reads the subscriber first to send its other fields back (two calls); with it,
 * the PATCH sends the fields given and nothing is read (one call, plus one read of the list's field names per run).
 * Every field of the list must be given, so that a field added to the list later is never emptied by a workflow
 * that does not know it (docs/sync.md).
 */
export const replaceAllCustomFieldsOption: INodeProperties = {
	displayName: 'Replace All Custom Fields',
	name: 'replaceAllCustomFields',
	type: 'boolean',
	default: false,
	description:
		"Whether the custom fields given are the subscriber's whole set, so the subscriber is not read first (one call instead of two). Every custom field of the list must be given; an empty value empties it. For syncs.",
};
