import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { campaignLocator } from '../../../shared/campaignLocators';
import { collectionPaging, simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { retiredEndpointNotice } from '../../../shared/retiredEndpoints';
import { simplifySubscribers } from './hooks';

const properties: INodeProperties[] = [
	retiredEndpointNotice(),
	...listScopeLocators(),
	{ ...campaignLocator, description: 'The broadcast or follow-up whose messages the subscribers were sent' },
	...collectionPaging(),
	simplifyToggle(simplifySubscribers),
];

export const subscriberGetForMessageDescription = updateDisplayOptions({ show: { operation: ['getForMessage'] } }, properties);
