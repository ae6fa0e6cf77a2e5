import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { listScopeLocators, shownFor } from '../../../shared/listScope';
import { simplifyBroadcasts, simplifyToggle } from '../../../shared/simplify';

const showOnlyForBroadcastGet = { operation: ['get'] };

export const broadcastGetDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastGet),
	shownFor(broadcastLocator, showOnlyForBroadcastGet),
	simplifyToggle(showOnlyForBroadcastGet, simplifyBroadcasts),
];
