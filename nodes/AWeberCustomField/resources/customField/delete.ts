import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { customFieldLocator } from '../../../shared/customFieldProperties';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [...listScopeLocators(), customFieldLocator];

export const customFieldDeleteDescription = updateDisplayOptions({ show: { operation: ['delete'] } }, properties);
