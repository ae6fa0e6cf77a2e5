import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchCampaigns } from '../shared/listSearch/searchCampaigns';
import { searchLists } from '../shared/listSearch/searchLists';
import { searchMessages } from '../shared/listSearch/searchMessages';
import { aweberActionNode } from '../shared/nodeDescription';
import { RETIRED_ENDPOINT_NOTE, retiredEndpointNotice } from '../shared/retiredEndpoints';
import { readableSubtitle } from '../shared/subtitle';
import { campaignDescription } from './resources/campaign';
import { messageDescription } from './resources/message';
import { messageOpenDescription, messageTrackedEventDescription } from './resources/messageEvent';
import { campaignToolDescriptions } from './toolDescriptions';

const properties: INodeProperties[] = [
	aweberTransport,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Campaign', value: 'campaign' },
			{ name: 'Message', value: 'message', description: RETIRED_ENDPOINT_NOTE },
			{ name: 'Message Open', value: 'messageOpen', description: RETIRED_ENDPOINT_NOTE },
			{ name: 'Message Tracked Event', value: 'messageTrackedEvent', description: RETIRED_ENDPOINT_NOTE },
		],
		default: 'campaign',
	},
	retiredEndpointNotice({ resource: ['message', 'messageOpen', 'messageTrackedEvent'] }),
	...campaignDescription,
	...messageDescription,
	...messageOpenDescription,
	...messageTrackedEventDescription,
	...campaignToolDescriptions,
];

export class AWeberCampaign implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Campaign',
		name: 'aWeberCampaign',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['input'],
		subtitle: readableSubtitle(properties),
		description: 'Read sent AWeber campaigns (broadcasts and follow-ups), their messages, opens and tracked events',
		defaults: { name: 'AWeber Campaign' },
		usableAsTool: true,
		properties,
	};

	methods = { listSearch: { searchAccounts, searchLists, searchCampaigns, searchMessages } };
}
