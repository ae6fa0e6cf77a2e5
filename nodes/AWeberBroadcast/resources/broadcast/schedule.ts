import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { listScopeLocators, shownFor } from '../../../shared/listScope';
import { simplifyBroadcasts, simplifyToggle } from '../../../shared/simplify';

const showOnlyForBroadcastSchedule = { operation: ['schedule'] };

export const broadcastScheduleDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastSchedule),
	shownFor({ ...broadcastLocator, description: 'A draft broadcast (cancel a scheduled one first to change its time)' }, showOnlyForBroadcastSchedule),
	{
		displayName: 'Schedule For',
		name: 'scheduledFor',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show: showOnlyForBroadcastSchedule },
		description:
			"When AWeber sends the broadcast. A time without a zone is in the workflow's time zone; a time in the past is refused.",
	},
	simplifyToggle(showOnlyForBroadcastSchedule, simplifyBroadcasts),
];
