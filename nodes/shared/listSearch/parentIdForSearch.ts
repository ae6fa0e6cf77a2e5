import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkPathParameter, idFieldText } from '../pathParameters';
import { accountIdForSearch } from './accountIdForSearch';

/**
 * A field a search needs before it can run (the list whose campaigns to show, the campaign whose messages
 * to show...). AWeber has no account-wide listing for these, so the user must choose the parent first. It
 * goes into the search's path, so it is checked as the nodes' IDs are (pathParameters.ts): `..` never gets there.
 */
export function parentIdForSearch(context: ILoadOptionsFunctions, name: string, label: string): string {
	let chosen: unknown;
	try {
		chosen = context.getNodeParameter(name, undefined, { extractValue: true });
	} catch {
		// A field the node does not have (n8n throws for it): not chosen, so left undefined.
	}
	const value = idFieldText(chosen);
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `Choose a ${label} first`, {
			description: `The "${label}" field must be set before this list can be loaded.`,
		});
	}
	return encodeURIComponent(checkPathParameter(context.getNode(), name, value));
}

/** `/accounts/{a}/lists/{l}`: the parent of campaigns, broadcasts, segments, web forms and landing pages. */
export async function listPathForSearch(context: ILoadOptionsFunctions): Promise<string> {
	return `/accounts/${await accountIdForSearch(context)}/lists/${parentIdForSearch(context, 'listId', 'List')}`;
}
