import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { subscriberLocator } from '../../../shared/subscriberLocator';
import { unsubscribeLimitOptions } from '../../../shared/unsubscribeLimit';
import { simplifySubscribers } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	subscriberLocator,
	{ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: unsubscribeLimitOptions },
	simplifyToggle(simplifySubscribers),
];

export const subscriberUnsubscribeDescription = updateDisplayOptions({ show: { operation: ['unsubscribe'] } }, properties);
