import type { INodeProperties } from 'n8n-workflow';

import { campaignLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators, shownFor } from '../../../shared/listScope';

const showOnlyForMessageGetMany = { resource: ['message'], operation: ['getAll'] };

export const messageGetManyDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForMessageGetMany),
	shownFor(campaignLocator, showOnlyForMessageGetMany),
	...collectionPaging(showOnlyForMessageGetMany),
];
