import type { INodeProperties } from 'n8n-workflow';

import { customFieldLocator } from '../../../shared/customFields';
import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForCustomFieldDelete = { operation: ['delete'] };

export const customFieldDeleteDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForCustomFieldDelete),
	{ ...customFieldLocator, displayOptions: { show: showOnlyForCustomFieldDelete } },
];
