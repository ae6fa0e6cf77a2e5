import type { INodeProperties } from 'n8n-workflow';

import { campaignLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { retiredEndpointNotice } from '../../../shared/retiredEndpoints';
import { simplifySubscribers, simplifyToggle } from '../../../shared/simplify';

const showOnlyForSubscriberGetForMessage = { operation: ['getForMessage'] };

export const subscriberGetForMessageDescription: INodeProperties[] = [
	retiredEndpointNotice(showOnlyForSubscriberGetForMessage),
	...listScopeLocators(showOnlyForSubscriberGetForMessage),
	{
		...campaignLocator,
		description: 'The broadcast or follow-up whose messages the subscribers were sent',
		displayOptions: { show: showOnlyForSubscriberGetForMessage },
	},
	...collectionPaging(showOnlyForSubscriberGetForMessage),
	simplifyToggle(showOnlyForSubscriberGetForMessage, simplifySubscribers),
];
