import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { listScopeLocators, shownFor } from '../../../shared/listScope';
import { simplifyBroadcasts, simplifyToggle } from '../../../shared/simplify';

const showOnlyForBroadcastCancel = { operation: ['cancel'] };

export const broadcastCancelDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastCancel),
	shownFor(broadcastLocator, showOnlyForBroadcastCancel),
	simplifyToggle(showOnlyForBroadcastCancel, simplifyBroadcasts),
];
