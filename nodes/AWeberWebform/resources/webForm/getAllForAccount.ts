import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accountCollectionFields } from '../listOrAccount';

const properties: INodeProperties[] = accountCollectionFields();

export const webFormGetManyForAccountDescription = updateDisplayOptions({ show: { resource: ['webForm'], operation: ['getAllForAccount'] } }, properties);
