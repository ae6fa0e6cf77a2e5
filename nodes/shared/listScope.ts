import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, listLocator } from './descriptions';

type Show = Record<string, Array<string | boolean>>;

/** Account and List pickers for an operation on something that lives under a list (`/accounts/{a}/lists/{l}/…`). */
export function listScopeLocators(show: Show): INodeProperties[] {
	return [
		{ ...accountLocator, displayOptions: { show } },
		{ ...listLocator, displayOptions: { show } },
	];
}

/** A shared locator shown only for one operation. */
export function shownFor(property: INodeProperties, show: Show): INodeProperties {
	return { ...property, displayOptions: { show } };
}
