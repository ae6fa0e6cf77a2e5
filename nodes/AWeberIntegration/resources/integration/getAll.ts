import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, collectionPaging } from '../../../shared/descriptions';

const showOnlyForIntegrationGetMany = { operation: ['getAll'] };

export const integrationGetManyDescription: INodeProperties[] = [
	{ ...accountLocator, displayOptions: { show: showOnlyForIntegrationGetMany } },
	...collectionPaging(showOnlyForIntegrationGetMany),
];
