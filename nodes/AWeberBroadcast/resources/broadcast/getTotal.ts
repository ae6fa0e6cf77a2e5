import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { broadcastStatusField } from './statusField';

const properties: INodeProperties[] = [...listScopeLocators(), broadcastStatusField()];

export const broadcastGetTotalDescription = updateDisplayOptions({ show: { operation: ['getTotal'] } }, properties);
