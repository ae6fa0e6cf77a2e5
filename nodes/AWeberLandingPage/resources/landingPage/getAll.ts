import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const showOnlyForLandingPageGetMany = { operation: ['getAll'] };

export const landingPageGetManyDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForLandingPageGetMany),
	...collectionPaging(showOnlyForLandingPageGetMany),
];
