import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { simplifySubscribers, simplifyToggle } from '../../../shared/simplify';
import { subscriberLocator } from '../../../shared/subscriberLocator';

const showOnlyForSubscriberGet = { operation: ['get'] };

export const subscriberGetDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSubscriberGet),
	{ ...subscriberLocator, displayOptions: { show: showOnlyForSubscriberGet } },
	simplifyToggle(showOnlyForSubscriberGet, simplifySubscribers),
];
