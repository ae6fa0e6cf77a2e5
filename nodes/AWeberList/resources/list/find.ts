import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accountLocator, collectionPaging } from '../../../shared/descriptions';
import { requireFields } from '../../../shared/fieldValidation';
import { refusingBadInput } from './hooks';

const properties: INodeProperties[] = [
	accountLocator,
	{
		displayName: 'Name or Unique List ID',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Newsletter',
		description: 'The list\'s name, or its unique list ID such as awlist1234567 (exact match, case-insensitive)',
		routing: {
			send: { type: 'query', property: 'name', preSend: [refusingBadInput(requireFields({ name: 'name', label: 'Name or Unique List ID' }))] },
		},
	},
	...collectionPaging(),
];

export const listFindDescription = updateDisplayOptions({ show: { operation: ['find'] } }, properties);
