import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyToggle } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { subscriberLocator } from '../../../shared/subscriberLocator';
import { simplifySubscribers } from './hooks';

const properties: INodeProperties[] = [...listScopeLocators(), subscriberLocator, simplifyToggle(simplifySubscribers)];

export const subscriberUnsubscribeDescription = updateDisplayOptions({ show: { operation: ['unsubscribe'] } }, properties);
