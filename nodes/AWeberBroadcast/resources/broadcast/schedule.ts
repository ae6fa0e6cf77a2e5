import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { simplifyBroadcasts } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{ ...broadcastLocator, description: 'A draft broadcast (cancel a scheduled one first to change its time)' },
	{
		displayName: 'Schedule For',
		name: 'scheduledFor',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			"When AWeber sends the broadcast. A time without a zone is in the workflow's time zone; a time in the past is refused.",
	},
	simplifyToggle(simplifyBroadcasts),
];

export const broadcastScheduleDescription = updateDisplayOptions({ show: { operation: ['schedule'] } }, properties);
