import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readCollectionPage } from '../collections';

/** The account chosen in the node, or the credential's only account when none is chosen yet. */
export async function accountIdForSearch(context: ILoadOptionsFunctions): Promise<string> {
	const chosen = context.getNodeParameter('accountId', undefined, { extractValue: true }) as string | number | undefined;
	const typed = chosen === undefined ? '' : String(chosen).trim();
	if (typed !== '') {
		if (!/^\d{1,20}$/.test(typed)) {
			throw new NodeOperationError(context.getNode(), `The "Account" field must be a numeric AWeber ID, not "${typed.slice(0, 40)}"`, {
				description: 'Choose the account from the list, or enter its ID.',
			});
		}
		return typed;
	}
	const accounts = await readCollectionPage<{ id: number }>(context, '/accounts');
	if (!accounts.entries.length) {
		throw new NodeOperationError(context.getNode(), 'The AWeber credential has no account');
	}
	return String(accounts.entries[0].id);
}
