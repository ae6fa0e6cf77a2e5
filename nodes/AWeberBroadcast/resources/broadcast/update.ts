import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { listScopeLocators, shownFor } from '../../../shared/listScope';
import { simplifyBroadcasts, simplifyToggle } from '../../../shared/simplify';
import { bodyHtmlField, byDisplayName, bodyTextField, broadcastSettingFields, subjectField } from './contentFields';

const showOnlyForBroadcastUpdate = { operation: ['update'] };

export const broadcastUpdateDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastUpdate),
	shownFor({ ...broadcastLocator, description: 'A draft created through the API (AWeber allows no other to change)' }, showOnlyForBroadcastUpdate),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showOnlyForBroadcastUpdate },
		options: byDisplayName([...broadcastSettingFields, subjectField, bodyHtmlField, bodyTextField]),
	},
	simplifyToggle(showOnlyForBroadcastUpdate, simplifyBroadcasts),
];
