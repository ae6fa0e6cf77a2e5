import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{ ...broadcastLocator, description: 'A sent broadcast (AWeber has statistics only once it is sent)' },
	...collectionPaging(),
];

export const broadcastGetStatisticsDescription = updateDisplayOptions({ show: { operation: ['getStatistics'] } }, properties);
