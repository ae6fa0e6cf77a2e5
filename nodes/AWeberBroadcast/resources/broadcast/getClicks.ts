import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{ ...broadcastLocator, description: 'A sent broadcast' },
	{
		displayName: 'One Item per Click',
		name: 'detailed',
		type: 'boolean',
		default: false,
		description:
			'Whether to return every click with its URL and time, instead of one item per subscriber with their click count',
		routing: { send: { type: 'query', property: 'detailed', value: '={{ $value ? "true" : undefined }}' } },
	},
	...collectionPaging('page_size'),
];

export const broadcastGetClicksDescription = updateDisplayOptions({ show: { operation: ['getClicks'] } }, properties);
