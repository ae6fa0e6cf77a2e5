import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listCollectionFields } from '../listOrAccount';

const properties: INodeProperties[] = listCollectionFields();

export const webFormGetManyDescription = updateDisplayOptions({ show: { resource: ['webForm'], operation: ['getAll'] } }, properties);
