import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { simplifyBroadcasts } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	broadcastLocator,
	simplifyToggle(simplifyBroadcasts),
];

export const broadcastGetDescription = updateDisplayOptions({ show: { operation: ['get'] } }, properties);
