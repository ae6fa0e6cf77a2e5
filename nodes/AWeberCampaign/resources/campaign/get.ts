import type { INodeProperties } from 'n8n-workflow';

import { campaignLocator } from '../../../shared/campaignLocators';
import { listScopeLocators, shownFor } from '../../../shared/listScope';

const showOnlyForCampaignGet = { resource: ['campaign'], operation: ['get'] };

export const campaignGetDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForCampaignGet),
	shownFor(campaignLocator, showOnlyForCampaignGet),
];
