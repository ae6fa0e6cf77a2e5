import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging, simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { broadcastStatusField } from './statusField';
import { simplifyBroadcasts } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	broadcastStatusField(),
	...collectionPaging(),
	simplifyToggle(simplifyBroadcasts),
];

export const broadcastGetManyDescription = updateDisplayOptions({ show: { operation: ['getAll'] } }, properties);
