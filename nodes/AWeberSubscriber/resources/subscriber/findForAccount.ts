import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, collectionPaging } from '../../../shared/descriptions';
import { simplifySubscribers, simplifyToggle } from '../../../shared/simplify';
import { searchFilters } from './searchFilters';

const showOnlyForSubscriberFindForAccount = { operation: ['findForAccount'] };

export const subscriberFindForAccountDescription: INodeProperties[] = [
	{ ...accountLocator, displayOptions: { show: showOnlyForSubscriberFindForAccount } },
	searchFilters(showOnlyForSubscriberFindForAccount, { listChosen: false }),
	...collectionPaging(showOnlyForSubscriberFindForAccount),
	simplifyToggle(showOnlyForSubscriberFindForAccount, simplifySubscribers),
];
