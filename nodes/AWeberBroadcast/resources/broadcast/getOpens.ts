import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{ ...broadcastLocator, description: 'A sent broadcast' },
	...collectionPaging('page_size'),
];

export const broadcastGetOpensDescription = updateDisplayOptions({ show: { operation: ['getOpens'] } }, properties);
