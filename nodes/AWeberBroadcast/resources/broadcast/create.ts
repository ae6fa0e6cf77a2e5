import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { bodyHtmlField, byDisplayName, bodyTextField, broadcastSettingFields, scheduleForField, subjectField } from './contentFields';
import { simplifyBroadcasts } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{ ...subjectField, required: true },
	bodyHtmlField,
	bodyTextField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: byDisplayName([
			...broadcastSettingFields,
			scheduleForField('Schedule the new draft at once for this time.', false),
		]),
	},
	simplifyToggle(simplifyBroadcasts),
];

export const broadcastCreateDescription = updateDisplayOptions({ show: { operation: ['create'] } }, properties);
