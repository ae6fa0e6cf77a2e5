import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accountLocator, collectionPaging, simplifyToggle } from '../../../shared/descriptions';
import { simplifySubscribers } from './hooks';
import { searchFilters } from './searchFilters';

const properties: INodeProperties[] = [
	accountLocator,
	searchFilters({ listChosen: false }),
	...collectionPaging(),
	simplifyToggle(simplifySubscribers),
];

export const subscriberFindForAccountDescription = updateDisplayOptions({ show: { operation: ['findForAccount'] } }, properties);
