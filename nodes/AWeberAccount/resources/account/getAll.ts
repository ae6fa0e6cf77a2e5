import type { INodeProperties } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';

const showOnlyForAccountGetMany = { operation: ['getAll'] };

export const accountGetManyDescription: INodeProperties[] = [...collectionPaging(showOnlyForAccountGetMany)];
