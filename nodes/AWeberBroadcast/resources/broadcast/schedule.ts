import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { scheduleForField } from './contentFields';
import { simplifyBroadcasts } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{ ...broadcastLocator, description: 'A draft broadcast (cancel a scheduled one first to change its time)' },
	scheduleForField('When AWeber sends the broadcast.', true),
	simplifyToggle(simplifyBroadcasts),
];

export const broadcastScheduleDescription = updateDisplayOptions({ show: { operation: ['schedule'] } }, properties);
