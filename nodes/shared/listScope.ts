import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, listLocator } from './descriptions';

/** Account and List pickers for an operation on something that lives under a list (`/accounts/{a}/lists/{l}/…`). */
export function listScopeLocators(): INodeProperties[] {
	return [accountLocator, listLocator];
}
