import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { campaignLocator, messageLocator } from '../../../shared/campaignLocators';
import { listScopeLocators } from '../../../shared/listScope';

const properties: INodeProperties[] = [...listScopeLocators(), campaignLocator, messageLocator];

export const messageGetDescription = updateDisplayOptions({ show: { resource: ['message'], operation: ['get'] } }, properties);
