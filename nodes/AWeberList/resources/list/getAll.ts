import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accountLocator, collectionPaging } from '../../../shared/descriptions';

const properties: INodeProperties[] = [accountLocator, ...collectionPaging()];

export const listGetManyDescription = updateDisplayOptions({ show: { operation: ['getAll'] } }, properties);
