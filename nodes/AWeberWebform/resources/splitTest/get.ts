import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { splitTestLocator } from '../locators';

const properties: INodeProperties[] = [...listScopeLocators(), splitTestLocator];

export const splitTestGetDescription = updateDisplayOptions({ show: { resource: ['splitTest'], operation: ['get'] } }, properties);
