import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accountLocator, aweberLocator } from '../../../shared/descriptions';

export const integrationLocator = aweberLocator({
	name: 'integrationId',
	displayName: 'Integration',
	searchMethod: 'searchIntegrations',
	urlSegment: 'integrations',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/integrations/301',
	idPlaceholder: '301',
});

const properties: INodeProperties[] = [accountLocator, integrationLocator];

export const integrationGetDescription = updateDisplayOptions({ show: { operation: ['get'] } }, properties);
