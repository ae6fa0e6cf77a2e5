import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { subscriberLocator } from '../../../shared/subscriberLocator';

const properties: INodeProperties[] = [...listScopeLocators(), subscriberLocator, ...collectionPaging()];

export const subscriberGetActivityDescription = updateDisplayOptions({ show: { operation: ['getActivity'] } }, properties);
