import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, aweberLocator } from '../../../shared/descriptions';

const showOnlyForIntegrationGet = { operation: ['get'] };

export const integrationLocator = aweberLocator({
	name: 'integrationId',
	displayName: 'Integration',
	searchMethod: 'searchIntegrations',
	urlSegment: 'integrations',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/integrations/301',
	idPlaceholder: '301',
});

export const integrationGetDescription: INodeProperties[] = [
	{ ...accountLocator, displayOptions: { show: showOnlyForIntegrationGet } },
	{ ...integrationLocator, displayOptions: { show: showOnlyForIntegrationGet } },
];
