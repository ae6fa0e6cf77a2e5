import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [...listScopeLocators()];

export const listGetDescription = updateDisplayOptions({ show: { operation: ['get'] } }, properties);
