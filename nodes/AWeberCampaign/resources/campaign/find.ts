import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{
		displayName: 'Campaign Type',
		name: 'campaignType',
		type: 'options',
		required: true,
		options: [
			{ name: 'Broadcast', value: 'b', description: 'Broadcasts that have been sent' },
			{ name: 'Follow-Up', value: 'f', description: 'Follow-up (autoresponder) messages' },
		],
		default: 'b',
		routing: { send: { type: 'query', property: 'campaign_type' } },
	},
	...collectionPaging(),
];

export const campaignFindDescription = updateDisplayOptions({ show: { resource: ['campaign'], operation: ['find'] } }, properties);
