import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { splitTestComponentLocator, splitTestLocator } from '../locators';

const properties: INodeProperties[] = [...listScopeLocators(), splitTestLocator, splitTestComponentLocator];

export const splitTestComponentGetDescription = updateDisplayOptions({ show: { resource: ['splitTestComponent'], operation: ['get'] } }, properties);
