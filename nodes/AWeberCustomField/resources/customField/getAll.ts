import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForCustomFieldGetMany = { operation: ['getAll'] };

export const customFieldGetManyDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForCustomFieldGetMany),
	...collectionPaging(showOnlyForCustomFieldGetMany),
];
