import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { segmentLocator } from '../../../shared/segmentLocator';

const properties: INodeProperties[] = [...listScopeLocators(), segmentLocator];

export const segmentGetDescription = updateDisplayOptions({ show: { operation: ['get'] } }, properties);
