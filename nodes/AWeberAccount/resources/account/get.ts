import type { INodeProperties } from 'n8n-workflow';

import { accountLocator } from '../../../shared/descriptions';

const showOnlyForAccountGet = { operation: ['get'] };

export const accountGetDescription: INodeProperties[] = [
	{ ...accountLocator, displayOptions: { show: showOnlyForAccountGet } },
];
