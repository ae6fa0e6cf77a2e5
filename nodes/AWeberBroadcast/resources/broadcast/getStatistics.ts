import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators, shownFor } from '../../../shared/listScope';

const showOnlyForBroadcastGetStatistics = { operation: ['getStatistics'] };

export const broadcastGetStatisticsDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastGetStatistics),
	shownFor({ ...broadcastLocator, description: 'A sent broadcast (AWeber has statistics only once it is sent)' }, showOnlyForBroadcastGetStatistics),
	...collectionPaging(showOnlyForBroadcastGetStatistics),
];
