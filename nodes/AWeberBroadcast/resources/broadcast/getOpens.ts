import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators, shownFor } from '../../../shared/listScope';

const showOnlyForBroadcastGetOpens = { operation: ['getOpens'] };

export const broadcastGetOpensDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastGetOpens),
	shownFor({ ...broadcastLocator, description: 'A sent broadcast' }, showOnlyForBroadcastGetOpens),
	...collectionPaging(showOnlyForBroadcastGetOpens, 'page_size'),
];
