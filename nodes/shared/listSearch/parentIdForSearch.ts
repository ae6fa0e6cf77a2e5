import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * A node parameter that a search needs before it can run (the list whose campaigns to show, the campaign whose
 * messages to show...). AWeber has no account-wide listing for these, so the user must choose the parent first.
 */
export function parentIdForSearch(context: ILoadOptionsFunctions, name: string, label: string): string {
	let chosen: unknown;
	try {
		chosen = context.getNodeParameter(name, undefined, { extractValue: true });
	} catch {
		chosen = undefined;
	}
	const value = typeof chosen === 'number' ? String(chosen) : typeof chosen === 'string' ? chosen.trim() : '';
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `Choose a ${label} first`, {
			description: `The "${label}" field must be set before this list can be loaded.`,
		});
	}
	return value;
}

export function listIdForSearch(context: ILoadOptionsFunctions): string {
	return parentIdForSearch(context, 'listId', 'list');
}
