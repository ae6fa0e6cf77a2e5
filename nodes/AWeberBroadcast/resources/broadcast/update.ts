import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { bodyHtmlField, byDisplayName, bodyTextField, broadcastSettingFields, subjectField } from './contentFields';
import { simplifyBroadcasts } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{ ...broadcastLocator, description: 'A draft created through the API (AWeber allows no other to change)' },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: byDisplayName([...broadcastSettingFields, subjectField, bodyHtmlField, bodyTextField]),
	},
	simplifyToggle(simplifyBroadcasts),
];

export const broadcastUpdateDescription = updateDisplayOptions({ show: { operation: ['update'] } }, properties);
