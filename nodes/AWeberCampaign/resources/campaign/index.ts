import type { INodeProperties } from 'n8n-workflow';

import { campaignFindDescription } from './find';
import { campaignGetDescription } from './get';
import { campaignGetManyDescription } from './getAll';

export const CAMPAIGNS = '/accounts/{accountId}/lists/{listId}/campaigns';

const showOnlyForCampaigns = { resource: ['campaign'] };

export const campaignOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: showOnlyForCampaigns },
	options: [
		{
			name: 'Find by Type',
			value: 'find',
			action: 'Find campaigns by type',
			description: 'Get only the broadcast campaigns or only the follow-ups of a list',
			routing: { request: { method: 'GET', url: CAMPAIGNS, qs: { 'ws.op': 'find' } } },
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a campaign',
			description: 'Get a sent broadcast (b…) or follow-up (f…) campaign with its totals',
			routing: { request: { method: 'GET', url: `${CAMPAIGNS}/{campaignId}` } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many campaigns',
			description: 'Get the campaigns of a list: sent broadcasts newest first, then follow-ups by number',
			routing: { request: { method: 'GET', url: CAMPAIGNS } },
		},
	],
	default: 'getAll',
};

export const campaignDescription: INodeProperties[] = [
	campaignOperations,
	...campaignGetManyDescription,
	...campaignGetDescription,
	...campaignFindDescription,
];
