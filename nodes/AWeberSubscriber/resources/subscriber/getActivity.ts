import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { subscriberLocator } from '../../../shared/subscriberLocator';

const showOnlyForSubscriberGetActivity = { operation: ['getActivity'] };

export const subscriberGetActivityDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForSubscriberGetActivity),
	{ ...subscriberLocator, displayOptions: { show: showOnlyForSubscriberGetActivity } },
	...collectionPaging(showOnlyForSubscriberGetActivity),
];
