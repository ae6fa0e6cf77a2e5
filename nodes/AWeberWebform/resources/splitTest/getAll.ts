import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listCollectionFields } from '../listOrAccount';

const properties: INodeProperties[] = listCollectionFields();

export const splitTestGetManyDescription = updateDisplayOptions({ show: { resource: ['splitTest'], operation: ['getAll'] } }, properties);
