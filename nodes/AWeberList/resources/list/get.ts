import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForListGet = { operation: ['get'] };

export const listGetDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForListGet),
];
