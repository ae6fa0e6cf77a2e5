import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { simplifyBroadcasts, simplifyToggle } from '../../../shared/simplify';
import { broadcastStatusField } from './statusField';

const showOnlyForBroadcastGetMany = { operation: ['getAll'] };

export const broadcastGetManyDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastGetMany),
	broadcastStatusField(showOnlyForBroadcastGetMany),
	...collectionPaging(showOnlyForBroadcastGetMany),
	simplifyToggle(showOnlyForBroadcastGetMany, simplifyBroadcasts),
];
