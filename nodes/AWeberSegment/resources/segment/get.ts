import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators, shownFor } from '../../../shared/listScope';
import { segmentLocator } from '../../../shared/segmentLocator';

const showOnlyForSegmentGet = { operation: ['get'] };

export const segmentGetDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSegmentGet),
	shownFor(segmentLocator, showOnlyForSegmentGet),
];
