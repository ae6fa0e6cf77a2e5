import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, collectionPaging } from '../../../shared/descriptions';

const showOnlyForListGetMany = { operation: ['getAll'] };

export const listGetManyDescription: INodeProperties[] = [
	{ ...accountLocator, displayOptions: { show: showOnlyForListGetMany } },
	...collectionPaging(showOnlyForListGetMany),
];
