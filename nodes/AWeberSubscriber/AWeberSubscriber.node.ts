import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchCampaigns } from '../shared/listSearch/searchCampaigns';
import { searchLists } from '../shared/listSearch/searchLists';
import { searchSubscribers } from '../shared/listSearch/searchSubscribers';
import { getCustomFieldNames } from '../shared/loadOptions/getCustomFieldNames';
import { getListTags } from '../shared/loadOptions/getListTags';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { subscriberDescription, subscriberHints } from './resources/subscriber';
import { subscriberToolDescriptions } from './toolDescriptions';

export class AWeberSubscriber implements INodeType {
	description: INodeTypeDescription = {
		// The node people use most carries the bare service name, as n8n's own integrations name their main node
		// (Postgres beside Postgres Trigger): n8n's node search ranks the closest name first.
		displayName: 'AWeber',
		name: 'aWeberSubscriber',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['transform'],
		subtitle: readableSubtitle(subscriberDescription),
		description: 'Add, tag, update, find, move and unsubscribe the subscribers of AWeber lists',
		defaults: { name: 'AWeber Subscriber' },
		usableAsTool: true,
		properties: [aweberTransport, ...subscriberDescription, ...subscriberToolDescriptions],
		hints: subscriberHints,
	};

	methods = {
		listSearch: { searchAccounts, searchLists, searchSubscribers, searchCampaigns },
		loadOptions: { getListTags, getCustomFieldNames },
	};
}
