import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { unexpectedAnswer } from './answers';
import { describeType, invalidField } from './fieldValidation';
import { reloadWhenListChanges } from './loadOptions/listNotChosen';

/**
 * Tags of a subscriber: picked from the list's tags (AWeber's "most popular tags" of the chosen list),
 * or new ones given by an expression, as an array or a comma-separated text.
 */
export function tagsProperty(options: { name: string; displayName: string; purpose: string }): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getListTags', loadOptionsDependsOn: reloadWhenListChanges },
		default: [],
		description: `${options.purpose}: tags of the list, or any others given by an expression (an array, or a comma-separated text). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

/** The tags of a field as AWeber wants them: trimmed, non-empty, unique strings. */
export function readTags(context: IExecuteSingleFunctions, parameterName: string, label: string): string[] {
	return checkTags(context, context.getNodeParameter(parameterName, []) as unknown, label);
}

export function checkTags(context: Pick<IExecuteSingleFunctions, 'getNode' | 'getItemIndex'>, value: unknown, label: string): string[] {
	// An empty text is no tags, as its split below gives only empty entries.
	if (value === undefined || value === null) return [];
	const values = typeof value === 'string' ? value.split(',') : value;
	if (!Array.isArray(values)) {
		throw invalidField(context, label, `must be a list of tags or a comma-separated text, not ${describeType(value)}`);
	}
	const tags: string[] = [];
	values.forEach((tag: unknown, index) => {
		if (typeof tag !== 'string') {
			throw invalidField(context, label, `must contain only text, but entry ${index + 1} is ${describeType(tag)}`);
		}
		const trimmed = tag.trim();
		if (trimmed !== '' && !tags.includes(trimmed)) tags.push(trimmed);
	});
	return tags;
}

/**
 * AWeber answers a list's tags as a bare array of strings (docs/aweber-behaviour.md#answers); n8n items must be
 * objects, one per tag. Anything else is refused: no items would read as "the list has no tags".
 */
export async function tagsAsItems(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const tags: unknown = response.body;
	if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) {
		throw unexpectedAnswer(this.getNode(), 'a list of tags', tags, "reading the list's tags", this.getItemIndex());
	}
	return tags.map((tag: string) => ({ json: { tag } }));
}
