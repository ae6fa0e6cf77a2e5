import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { campaignLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [...listScopeLocators(), campaignLocator, ...collectionPaging()];

export const messageGetManyDescription = updateDisplayOptions({ show: { resource: ['message'], operation: ['getAll'] } }, properties);
