import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { customFieldNamesOfList, newSubscriberCustomFields, type CustomFieldValue } from '../../../shared/customFields';
import { invalidField } from '../../../shared/fieldValidation';

/**
 * The PATCH's `custom_fields` when Update's option "Replace All Custom Fields" (fields.ts) is on (empty values left
 * out, so AWeber empties them), else undefined.
 */
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
