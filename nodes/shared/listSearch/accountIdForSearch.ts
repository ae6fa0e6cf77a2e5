import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readCollectionPage } from '../collections';
import { checkPathParameter, idFieldText } from '../pathParameters';

/** The account chosen in the node, or the credential's only account when none is chosen yet. */
export async function accountIdForSearch(context: ILoadOptionsFunctions): Promise<string> {
	// Blank, or an expression giving nothing (`null`): the credential's own account, as when none is chosen yet.
	const typed = idFieldText(context.getNodeParameter('accountId', undefined, { extractValue: true }));
	if (typed !== '') return checkPathParameter(context.getNode(), 'accountId', typed);
	const accounts = await readCollectionPage<{ id: number }>(context, '/accounts');
	if (!accounts.entries.length) {
		throw new NodeOperationError(context.getNode(), 'The AWeber credential has no account');
	}
	return String(accounts.entries[0].id);
}
