import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForCampaignGetMany = { resource: ['campaign'], operation: ['getAll'] };

export const campaignGetManyDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForCampaignGetMany),
	...collectionPaging(showOnlyForCampaignGetMany),
];
