import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [...listScopeLocators(), ...collectionPaging()];

export const campaignGetManyDescription = updateDisplayOptions({ show: { resource: ['campaign'], operation: ['getAll'] } }, properties);
