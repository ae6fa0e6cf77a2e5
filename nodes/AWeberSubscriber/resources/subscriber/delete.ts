import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listScopeLocators } from '../../../shared/listScope';
import { subscriberLocator } from '../../../shared/subscriberLocator';

const properties: INodeProperties[] = [...listScopeLocators(), subscriberLocator];

export const subscriberDeleteDescription = updateDisplayOptions({ show: { operation: ['delete'] } }, properties);
