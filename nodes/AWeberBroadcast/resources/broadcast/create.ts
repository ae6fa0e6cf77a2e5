import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { simplifyBroadcasts, simplifyToggle } from '../../../shared/simplify';
import { bodyHtmlField, byDisplayName, bodyTextField, broadcastSettingFields, subjectField } from './contentFields';

const showOnlyForBroadcastCreate = { operation: ['create'] };

export const broadcastCreateDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastCreate),
	{ ...subjectField, required: true, displayOptions: { show: showOnlyForBroadcastCreate } },
	{ ...bodyHtmlField, displayOptions: { show: showOnlyForBroadcastCreate } },
	{ ...bodyTextField, displayOptions: { show: showOnlyForBroadcastCreate } },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showOnlyForBroadcastCreate },
		options: byDisplayName([
			...broadcastSettingFields,
			{
				displayName: 'Schedule For',
				name: 'scheduledFor',
				type: 'dateTime',
				default: '',
				description:
					"Schedule the new draft at once for this time. A time without a zone is in the workflow's time zone.",
			},
		]),
	},
	simplifyToggle(showOnlyForBroadcastCreate, simplifyBroadcasts),
];
