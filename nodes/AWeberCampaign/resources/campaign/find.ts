import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForCampaignFind = { resource: ['campaign'], operation: ['find'] };

export const campaignFindDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForCampaignFind),
	{
		displayName: 'Campaign Type',
		name: 'campaignType',
		type: 'options',
		required: true,
		displayOptions: { show: showOnlyForCampaignFind },
		options: [
			{ name: 'Broadcast', value: 'b', description: 'Broadcasts that have been sent' },
			{ name: 'Follow-Up', value: 'f', description: 'Follow-up (autoresponder) messages' },
		],
		default: 'b',
		routing: { send: { type: 'query', property: 'campaign_type' } },
	},
	...collectionPaging(showOnlyForCampaignFind),
];
