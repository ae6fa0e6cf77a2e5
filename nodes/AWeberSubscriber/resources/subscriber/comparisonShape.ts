import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { eachOutputEntry } from '../../../shared/simplify';

/*
 * "Shape for Comparison" (Get Many): each subscriber as the fields a sync compares, written so that n8n's Compare
 * Datasets node, which compares whole items with deep equality, sees a subscriber and a source contact with the
 * same data as equal (docs/sync.md). Nothing else is kept: any other field would make every pair differ.
 */

/** AWeber matches addresses ignoring case and spaces around them; the sandbox does too (docs/sync.md). */
export function comparableEmail(email: unknown): string {
	return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

/** Every custom field of the list (AWeber sends them all, null when empty), empty ones as "". */
function comparableCustomFields(customFields: unknown): IDataObject {
	const fields: IDataObject = {};
	if (typeof customFields !== 'object' || customFields === null) return fields;
	for (const [name, value] of Object.entries(customFields)) fields[name] = typeof value === 'string' ? value : '';
	return fields;
}

export function comparableSubscriber(subscriber: IDataObject): IDataObject {
	const tags = Array.isArray(subscriber.tags) ? subscriber.tags.filter((tag): tag is string => typeof tag === 'string') : [];
	return {
		email: comparableEmail(subscriber.email),
		name: typeof subscriber.name === 'string' ? subscriber.name : '',
		tags: [...tags].sort(),
		custom_fields: comparableCustomFields(subscriber.custom_fields),
	};
}

/** The postReceive of the field (getAll.ts): each entry of every page (the routed entry runs it on the further pages too). */
export async function shapeForComparison(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	if (this.getNodeParameter('shapeForComparison', false) !== true) return items;
	return eachOutputEntry(items, comparableSubscriber);
}
