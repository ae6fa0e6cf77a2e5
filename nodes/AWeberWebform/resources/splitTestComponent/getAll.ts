import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { splitTestLocator } from '../locators';

const properties: INodeProperties[] = [...listScopeLocators(), splitTestLocator, ...collectionPaging()];

export const splitTestComponentGetManyDescription = updateDisplayOptions({ show: { resource: ['splitTestComponent'], operation: ['getAll'] } }, properties);
