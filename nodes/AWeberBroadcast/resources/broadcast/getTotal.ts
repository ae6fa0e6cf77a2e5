import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { broadcastStatusField } from './statusField';

const showOnlyForBroadcastGetTotal = { operation: ['getTotal'] };

export const broadcastGetTotalDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastGetTotal),
	broadcastStatusField(showOnlyForBroadcastGetTotal),
];
