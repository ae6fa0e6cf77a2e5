import type { IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';

import { newSubscriberCustomFields, type CustomFieldValue } from '../../../shared/customFields';

/**
 * Update's option "Replace All Custom Fields": the custom fields given are the subscriber's whole set. AWeber
 * replaces a subscriber's custom fields with what a PATCH sends (docs/aweber-behaviour.md), so without the option
 * the Update reads the subscriber first to send its other fields back (two calls); with it, the PATCH sends the
 * fields given and nothing is read (one call, plus one read of the list's field names per run to refuse unknown
 * names). For a sync, which knows every field of each contact (docs/sync.md).
 */
export const replaceAllCustomFieldsOption: INodeProperties = {
	displayName: 'Replace All Custom Fields',
	name: 'replaceAllCustomFields',
	type: 'boolean',
	default: false,
	description:
		"Whether the custom fields given are the subscriber's whole set: fields left out are emptied, and the subscriber is not read first (one call instead of two). For syncs that give every custom field of the list.",
};

/** The PATCH's `custom_fields` when the option is on (empty values left out, so AWeber empties them), else undefined. */
export async function replacedCustomFields(
	context: IExecuteSingleFunctions,
	changes: CustomFieldValue[],
	strict: boolean,
): Promise<Record<string, string> | undefined> {
	if (context.getNodeParameter('options.replaceAllCustomFields', false) !== true) return undefined;
	return await newSubscriberCustomFields(context, changes, strict);
}
