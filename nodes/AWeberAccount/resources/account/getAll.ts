import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';

const properties: INodeProperties[] = [...collectionPaging()];

export const accountGetManyDescription = updateDisplayOptions({ show: { operation: ['getAll'] } }, properties);
