import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, collectionPaging } from '../../../shared/descriptions';
import { requireFields } from '../../../shared/fieldValidation';
import { refusingBadInput } from '../../../shared/transport';

const showOnlyForListFind = { operation: ['find'] };

export const listFindDescription: INodeProperties[] = [
	{ ...accountLocator, displayOptions: { show: showOnlyForListFind } },
	{
		displayName: 'Name or Unique List ID',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Newsletter',
		description: 'The list\'s name, or its unique list ID such as awlist1234567 (exact match, case-insensitive)',
		displayOptions: { show: showOnlyForListFind },
		routing: {
			send: { type: 'query', property: 'name', preSend: [refusingBadInput(requireFields({ name: 'name', label: 'Name or Unique List ID' }))] },
		},
	},
	...collectionPaging(showOnlyForListFind),
];
