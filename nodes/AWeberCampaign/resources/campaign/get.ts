import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { campaignLocator } from '../../../shared/campaignLocators';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [...listScopeLocators(), campaignLocator];

export const campaignGetDescription = updateDisplayOptions({ show: { resource: ['campaign'], operation: ['get'] } }, properties);
