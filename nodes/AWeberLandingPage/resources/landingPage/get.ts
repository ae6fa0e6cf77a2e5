import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { aweberLocator } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

/** Landing page ids are not numbers (AWeber uses UUID-like ids for them). */
export const landingPageLocator = aweberLocator({
	name: 'landingPageId',
	displayName: 'Landing Page',
	searchMethod: 'searchLandingPages',
	urlSegment: 'landing_pages',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/landing_pages/1a9d0000-0000-4000-8000-000000000001',
	idPlaceholder: '1a9d0000-0000-4000-8000-000000000001',
	idPattern: '^[\\w-]{1,64}$',
});

const properties: INodeProperties[] = [...listScopeLocators(), landingPageLocator];

export const landingPageGetDescription = updateDisplayOptions({ show: { operation: ['get'] } }, properties);
