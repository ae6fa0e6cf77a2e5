import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchBroadcasts } from '../shared/listSearch/searchBroadcasts';
import { searchFacebookIntegrations, searchTwitterIntegrations } from '../shared/listSearch/searchIntegrations';
import { searchLists } from '../shared/listSearch/searchLists';
import { searchBroadcastSegments } from '../shared/listSearch/searchSegments';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { broadcastDescription } from './resources/broadcast';
import { broadcastToolDescriptions } from './toolDescriptions';

export class AWeberBroadcast implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Broadcast',
		name: 'aWeberBroadcast',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['output'],
		subtitle: readableSubtitle(broadcastDescription),
		description: 'Draft, schedule, cancel and measure AWeber broadcast emails',
		defaults: { name: 'AWeber Broadcast' },
		usableAsTool: true,
		properties: [aweberTransport, ...broadcastDescription, ...broadcastToolDescriptions],
	};

	methods = {
		listSearch: {
			searchAccounts,
			searchLists,
			searchBroadcasts,
			searchBroadcastSegments,
			searchFacebookIntegrations,
			searchTwitterIntegrations,
		},
	};
}
