import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/* What the package relies on in AWeber's answers (docs/aweber-behaviour.md#answers); anything else is refused with `unexpectedAnswer`. */

/** One page of an AWeber collection: offset pages (`ws.start`/`ws.size`, `total_size`) and cursor pages alike. */
export interface CollectionPage<T = IDataObject> {
	entries: T[];
	next_collection_link?: string;
	total_size?: number;
}

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** AWeber collections (offset or cursor pages) all carry `entries`; single resources never do. */
export function isCollectionPage(body: unknown): body is CollectionPage {
	return isObject(body) && Array.isArray(body.entries) && body.entries.every(isObject);
}

/** A subscriber as the package uses it: ID, link, address, and custom fields as an object (docs/aweber-behaviour.md#custom-fields). */
export function isSubscriber(body: unknown): body is IDataObject & { custom_fields: IDataObject; self_link: string; email: string } {
	return (
		isObject(body) &&
		(typeof body.id === 'number' || (typeof body.id === 'string' && /^\d+$/.test(body.id))) &&
		typeof body.self_link === 'string' &&
		typeof body.email === 'string' &&
		isObject(body.custom_fields)
	);
}

/** A short, safe description of an answer for an error: its kind and its first characters. */
function describeAnswer(body: unknown): string {
	if (body === undefined || body === null || body === '') return 'an empty answer';
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	const shown = text.replace(/\s+/g, ' ').trim();
	const kind = typeof body === 'string' ? (/^\s*</.test(body) ? 'an HTML page' : 'text') : Array.isArray(body) ? 'a JSON array' : `a JSON ${typeof body}`;
	return `${kind} (${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown})`;
}

/** AWeber's answer is not `expected` ("the subscriber 123") while `where`; `done`: what the node had carried out before, if anything. */
export function unexpectedAnswer(node: INode, expected: string, body: unknown, where: string, itemIndex?: number, done?: string): NodeOperationError {
	const outcome = done ?? 'The node did not act on that answer and changed nothing in AWeber.';
	return new NodeOperationError(node, `AWeber's answer was unexpected: it is not ${expected}`, {
		description:
			`While ${where}, AWeber answered ${describeAnswer(body)} instead of ${expected}. ${outcome} ` +
			'This is usually a passing fault at AWeber or in a proxy between n8n and AWeber: run the step again later.',
		itemIndex,
	});
}
