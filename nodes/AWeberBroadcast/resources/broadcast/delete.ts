import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { listScopeLocators, shownFor } from '../../../shared/listScope';

const showOnlyForBroadcastDelete = { operation: ['delete'] };

export const broadcastDeleteDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastDelete),
	shownFor(broadcastLocator, showOnlyForBroadcastDelete),
];
