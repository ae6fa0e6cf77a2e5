import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [...listScopeLocators()];

export const listGetTagsDescription = updateDisplayOptions({ show: { operation: ['getTags'] } }, properties);
