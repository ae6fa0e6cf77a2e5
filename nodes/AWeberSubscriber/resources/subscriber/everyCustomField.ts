import type { IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';

import { customFieldNamesOfList, newSubscriberCustomFields, type CustomFieldValue } from '../../../shared/customFields';
import { invalidField } from '../../../shared/fieldValidation';

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

/** The PATCH's `custom_fields` when the option is on (empty values left out, so AWeber empties them), else undefined. */
export async function replacedCustomFields(
	context: IExecuteSingleFunctions,
	changes: CustomFieldValue[],
	strict: boolean,
): Promise<Record<string, string> | undefined> {
	if (context.getNodeParameter('options.replaceAllCustomFields', false) !== true) return undefined;
	const fields = await newSubscriberCustomFields(context, changes, strict);
	const given = (name: string) => changes.some((change) => (strict ? change.name === name : change.name.toLowerCase() === name.toLowerCase()));
	const missing = (await customFieldNamesOfList(context)).filter((name) => !given(name));
	if (missing.length > 0) {
		throw invalidField(
			context,
			'Custom Fields',
			`leaves out the list's ${missing.map((name) => `"${name}"`).join(', ')}`,
			'With "Replace All Custom Fields" on, every custom field of the list must be given (an empty value empties it): a field left out would be emptied. Add it under Custom Fields, or turn the option off to keep the fields not given.',
		);
	}
	return fields;
}
