import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport, deferPreSendFailures } from '../shared/descriptions';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchCampaigns } from '../shared/listSearch/searchCampaigns';
import { searchLists } from '../shared/listSearch/searchLists';
import { searchSubscribers } from '../shared/listSearch/searchSubscribers';
import { getCustomFieldNames } from '../shared/loadOptions/getCustomFieldNames';
import { getListTags } from '../shared/loadOptions/getListTags';
import { aweberActionNode } from '../shared/nodeDescription';
import { subscriberDescription } from './resources/subscriber';

export class AWeberSubscriber implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Subscriber',
		name: 'aWeberSubscriber',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['transform'],
		subtitle: '={{$parameter["operation"]}}',
		description: 'Add, tag, update, find, move and unsubscribe the subscribers of AWeber lists',
		defaults: { name: 'AWeber Subscriber' },
		usableAsTool: true,
		properties: deferPreSendFailures([aweberTransport, ...subscriberDescription]),
	};

	methods = {
		listSearch: { searchAccounts, searchLists, searchSubscribers, searchCampaigns },
		loadOptions: { getListTags, getCustomFieldNames },
	};
}
