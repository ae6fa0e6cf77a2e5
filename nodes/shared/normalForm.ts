import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { checkTags } from './tags';

/*
 * The normal form of a subscriber's synced fields (docs/sync.md#the-normal-form): what the writes send and what both
 * sides of a sync's comparison are shaped to, so that a contact and a subscriber holding the same data compare equal
 * and a second run writes nothing. Get Many's "Shape for Comparison" (the list's side), "Shape Source for Comparison"
 * (the source's side) and the writes (requests.ts, customFields.ts, tags.ts, fields.ts) all use these rules.
 */

type FieldContext = Pick<IExecuteSingleFunctions, 'getNode' | 'getItemIndex'>;

/** AWeber matches addresses ignoring case and spaces around them; the sandbox does too (docs/sync.md). */
export function normalEmail(email: unknown): string {
	return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

/** A name as the writes send it: trimmed (fields.ts sends a trimmed name, and none when empty). */
export function normalName(name: unknown): string {
	if (typeof name === 'number' || typeof name === 'boolean') return String(name);
	return typeof name === 'string' ? name.trim() : '';
}

/**
 * Tags as the writes send them (checkTags: an array or a comma-separated text, each trimmed, empty ones dropped,
 * each once; their case kept, as AWeber keeps it), sorted so that order never counts. A value that is not tags
 * fails its own item, naming the field.
 */
export function normalTags(context: FieldContext, value: unknown, label: string): string[] {
	return [...checkTags(context, value, label)].sort();
}

/**
 * A custom field value as the writes send it (readCustomFieldValues): text trimmed, a number or true/false as its
 * text, nothing (null, missing) as "". Anything else is "" here: the list's side only reads what AWeber stored.
 */
export function normalCustomFieldValue(value: unknown): string {
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return typeof value === 'string' ? value.trim() : '';
}

/** Every custom field of the list (AWeber sends them all, null when empty), in normal form. */
function normalCustomFields(customFields: unknown): IDataObject {
	const fields: IDataObject = {};
	if (typeof customFields !== 'object' || customFields === null) return fields;
	for (const [name, value] of Object.entries(customFields)) fields[name] = normalCustomFieldValue(value);
	return fields;
}

/** The tags AWeber stored, in normal form (a stored tag is text; anything else is left out). */
function normalStoredTags(tags: unknown): string[] {
	const texts = Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
	return [...new Set(texts.map((tag) => tag.trim()).filter((tag) => tag !== ''))].sort();
}

/** A subscriber of the list in the comparison shape: the synced fields in normal form, and its status. */
export function comparableSubscriber(subscriber: IDataObject): IDataObject {
	return {
		email: normalEmail(subscriber.email),
		name: normalName(subscriber.name),
		tags: normalStoredTags(subscriber.tags),
		custom_fields: normalCustomFields(subscriber.custom_fields),
		status: typeof subscriber.status === 'string' ? subscriber.status : '',
	};
}
