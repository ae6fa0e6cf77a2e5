import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForSegmentGetMany = { operation: ['getAll'] };

export const segmentGetManyDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSegmentGetMany),
	...collectionPaging(showOnlyForSegmentGetMany),
];
