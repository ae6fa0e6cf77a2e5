import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForListGetTags = { operation: ['getTags'] };

export const listGetTagsDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForListGetTags),
];
