import type { INodeProperties } from 'n8n-workflow';

import { customFieldLocator } from '../../../shared/customFields';
import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForCustomFieldGet = { operation: ['get'] };

export const customFieldGetDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForCustomFieldGet),
	{ ...customFieldLocator, displayOptions: { show: showOnlyForCustomFieldGet } },
];
