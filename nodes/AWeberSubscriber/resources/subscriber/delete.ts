import type { INodeProperties } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { subscriberLocator } from '../../../shared/subscriberLocator';

const showOnlyForSubscriberDelete = { operation: ['delete'] };

export const subscriberDeleteDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSubscriberDelete),
	{ ...subscriberLocator, displayOptions: { show: showOnlyForSubscriberDelete } },
];
