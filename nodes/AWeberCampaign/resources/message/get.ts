import type { INodeProperties } from 'n8n-workflow';

import { campaignLocator, messageLocator } from '../../../shared/campaignLocators';
import { listScopeLocators, shownFor } from '../../../shared/listScope';

const showOnlyForMessageGet = { resource: ['message'], operation: ['get'] };

export const messageGetDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForMessageGet),
	shownFor(campaignLocator, showOnlyForMessageGet),
	shownFor(messageLocator, showOnlyForMessageGet),
];
