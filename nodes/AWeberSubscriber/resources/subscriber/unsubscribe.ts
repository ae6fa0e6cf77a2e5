import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { simplifySubscribers, simplifyToggle } from '../../../shared/simplify';
import { subscriberLocator } from '../../../shared/subscriberLocator';

const showOnlyForSubscriberUnsubscribe = { operation: ['unsubscribe'] };

export const subscriberUnsubscribeDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSubscriberUnsubscribe),
	{ ...subscriberLocator, displayOptions: { show: showOnlyForSubscriberUnsubscribe } },
	simplifyToggle(showOnlyForSubscriberUnsubscribe, simplifySubscribers),
];
