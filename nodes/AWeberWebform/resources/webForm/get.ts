import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { webFormLocator } from '../locators';

const properties: INodeProperties[] = [...listScopeLocators(), webFormLocator];

export const webFormGetDescription = updateDisplayOptions({ show: { resource: ['webForm'], operation: ['get'] } }, properties);
