import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [...listScopeLocators(), broadcastLocator];

export const broadcastDeleteDescription = updateDisplayOptions({ show: { operation: ['delete'] } }, properties);
