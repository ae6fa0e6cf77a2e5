import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, collectionPaging } from '../../shared/descriptions';
import { listScopeLocators, shownFor } from '../../shared/listScope';

type Show = Record<string, string[]>;

/** Fields of "Get Many" on a list: account, list, Return All / Limit. */
export function listCollectionFields(show: Show): INodeProperties[] {
	return [...listScopeLocators(show), ...collectionPaging(show)];
}

/** Fields of "Get Many for Account": AWeber's account-wide named operations take only the account. */
export function accountCollectionFields(show: Show): INodeProperties[] {
	return [shownFor(accountLocator, show), ...collectionPaging(show)];
}
