import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accountLocator } from '../../../shared/descriptions';

const properties: INodeProperties[] = [accountLocator];

export const accountGetDescription = updateDisplayOptions({ show: { operation: ['get'] } }, properties);
