import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readAllEntries } from './collections';
import { describeType, invalidField } from './fieldValidation';
import { listPathOf } from './listPath';
import { runStateOf } from './runState';
import type { AweberContext } from './aweberContext';

/* The values of the custom field fields, read and checked at request time; the fields themselves are in customFieldProperties.ts. */

export interface CustomFieldValue {
	name: string;
	/** '' means "no value". */
	value: string;
}

type FieldContext = Pick<IExecuteSingleFunctions, 'getNode' | 'getItemIndex' | 'getNodeParameter'>;

/** The custom field rows of a fixed collection, checked: every row names a field, once, and values are text. */
export function readCustomFieldValues(context: IExecuteSingleFunctions, parameterName: string): CustomFieldValue[] {
	const collection = context.getNodeParameter(parameterName, {}) as { field?: Array<{ name?: unknown; value?: unknown }> };
	const values: CustomFieldValue[] = [];
	(collection.field ?? []).forEach((row, index) => {
		const name = typeof row.name === 'string' ? row.name.trim() : '';
		if (name === '') {
			throw invalidField(context, 'Custom Fields', `has a row without a field name (row ${index + 1})`);
		}
		if (values.some((earlier) => earlier.name.toLowerCase() === name.toLowerCase())) {
			throw invalidField(context, 'Custom Fields', `sets "${name}" twice`);
		}
		let value = row.value;
		if (value === undefined || value === null) value = '';
		if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
		if (typeof value !== 'string') {
			throw invalidField(context, `Custom Field "${name}"`, `must be text, not ${describeType(value)}`);
		}
		values.push({ name, value: value.trim() });
	});
	return values;
}

/** "Ignore Unknown Custom Fields": names the list does not have are left out, as AWeber does (off: an error). */
function ignoresUnknownCustomFields(context: FieldContext): boolean {
	return context.getNodeParameter('options.ignoreUnknownCustomFields', false) === true;
}

export function unknownCustomField(context: FieldContext, name: string, known: string[], strict: boolean): NodeOperationError {
	const rule = strict
		? 'With "Strict Custom Fields" on, names must match exactly, including case.'
		: 'Names match ignoring case. Fix the name, add the field to the list (AWeber Custom Field node), or turn on "Ignore Unknown Custom Fields" under Options to leave such names out as AWeber does.';
	return new NodeOperationError(context.getNode(), `The custom field "${name}" does not exist on this list`, {
		description: `The list's custom fields are: ${known.join(', ') || '(none)'}. ${rule}`,
		itemIndex: context.getItemIndex(),
	});
}

/** The list's field a name stands for: exactly when strict, else ignoring case as AWeber does. */
export function matchField(known: string[], name: string, strict: boolean): string | undefined {
	return strict ? known.find((field) => field === name) : known.find((field) => field.toLowerCase() === name.toLowerCase());
}

/** An update's complete `custom_fields`: AWeber nulls those a PATCH leaves out (docs/aweber-behaviour.md#custom-fields-on-patch). */
export function mergeCustomFields(
	context: FieldContext,
	current: Record<string, unknown>,
	changes: CustomFieldValue[],
	strict: boolean,
): Record<string, unknown> {
	// A subscriber carries every custom field of its list (null when empty), so these are the list's fields.
	const known = Object.keys(current);
	const ignoreUnknown = !strict && ignoresUnknownCustomFields(context);
	const changed = new Map<string, string>();
	for (const change of changes) {
		const key = matchField(known, change.name, strict) ?? (ignoreUnknown ? change.name : undefined);
		if (key === undefined) throw unknownCustomField(context, change.name, known, strict);
		changed.set(key, change.value);
	}
	// No prototype: a field named `__proto__` is a field like any other.
	const merged = Object.create(null) as Record<string, unknown>;
	for (const [name, value] of Object.entries(current)) {
		if (changed.has(name) || value === null || value === '') continue;
		if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
			throw keptValueNotSendable(context, name, value);
		}
		merged[name] = value;
	}
	for (const [key, value] of changed) if (value !== '') merged[key] = value;
	return merged;
}

/** The body as JSON text: n8n's request layer drops keys named like object built-ins (`__proto__`, `constructor`). */
export function asJsonText<T extends IHttpRequestOptions>(requestOptions: T): T {
	return { ...requestOptions, body: JSON.stringify(requestOptions.body), headers: { ...requestOptions.headers, 'Content-Type': 'application/json' } };
}

function keptValueNotSendable(context: FieldContext, name: string, value: unknown): NodeOperationError {
	return new NodeOperationError(context.getNode(), `The custom field "${name}" holds ${describeType(value)} in AWeber, which the update cannot send back`, {
		description:
			'AWeber sets every custom field missing from an update to empty, so an update sends back every value the subscriber has, unchanged. ' +
			`This one is not text, a number or true/false, so it cannot be sent back as it is. Nothing was changed in AWeber. Set "${name}" to a text value (under "Custom Fields") to replace it.`,
		itemIndex: context.getItemIndex(),
	});
}

/** The custom fields of a new subscriber (or buyer), checked against one read of the list's fields per run (its callers skip it when none is given). */
export async function newSubscriberCustomFields(
	context: IExecuteSingleFunctions,
	values: CustomFieldValue[],
	strict: boolean,
): Promise<Record<string, string>> {
	if (strict || !ignoresUnknownCustomFields(context)) {
		const known = await customFieldNamesOfList(context);
		for (const { name } of values) {
			if (matchField(known, name, strict) === undefined) throw unknownCustomField(context, name, known, strict);
		}
	}
	const fields: Record<string, string> = {};
	for (const { name, value } of values) if (value !== '') fields[name] = value;
	return fields;
}

/** One read of a list's custom fields serves every item of a node run (kept in the run's state, runState.ts). */
export async function customFieldNamesOfList(context: IExecuteSingleFunctions): Promise<string[]> {
	const listPath = listPathOf(context);
	const byList = runStateOf(context)?.customFieldNames;
	if (!byList) return await listCustomFieldNames(context, listPath);
	let names = byList.get(listPath);
	if (!names) {
		names = listCustomFieldNames(context, listPath);
		byList.set(listPath, names);
		// A failed read must not be remembered.
		names.catch(() => byList.delete(listPath));
	}
	return await names;
}

/** Every custom field name of a list (`/accounts/{a}/lists/{l}`), all pages. */
export async function listCustomFieldNames(context: AweberContext, listPath: string): Promise<string[]> {
	return (await readAllEntries<{ name: string }>(context, `${listPath}/custom_fields`)).map((field) => field.name);
}
