import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, collectionPaging } from '../../shared/descriptions';
import { listScopeLocators } from '../../shared/listScope';

/** Fields of "Get Many" on a list: account, list, Return All / Limit. */
export function listCollectionFields(): INodeProperties[] {
	return [...listScopeLocators(), ...collectionPaging()];
}

/** Fields of "Get Many for Account": AWeber's account-wide named operations take only the account. */
export function accountCollectionFields(): INodeProperties[] {
	return [accountLocator, ...collectionPaging()];
}
