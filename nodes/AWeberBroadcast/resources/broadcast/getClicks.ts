import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators, shownFor } from '../../../shared/listScope';

const showOnlyForBroadcastGetClicks = { operation: ['getClicks'] };

export const broadcastGetClicksDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForBroadcastGetClicks),
	shownFor({ ...broadcastLocator, description: 'A sent broadcast' }, showOnlyForBroadcastGetClicks),
	{
		displayName: 'One Item per Click',
		name: 'detailed',
		type: 'boolean',
		default: false,
		displayOptions: { show: showOnlyForBroadcastGetClicks },
		description:
			'Whether to return every click with its URL and time, instead of one item per subscriber with their click count',
		routing: { send: { type: 'query', property: 'detailed', value: '={{ $value ? "true" : undefined }}' } },
	},
	...collectionPaging(showOnlyForBroadcastGetClicks, 'page_size'),
];
