import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireFields, TRIMMED_TEXT } from '../../../shared/fieldValidation';
import { listScopeLocators } from '../../../shared/listScope';
import { refusingBadInput } from './hooks';

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Company',
		description: 'Name of the new custom field; it must differ (ignoring case) from the list\'s other custom fields',
		routing: {
			send: {
				type: 'body',
				property: 'name',
				value: TRIMMED_TEXT,
				preSend: [refusingBadInput(requireFields({ name: 'name', label: 'Name' }))],
			},
		},
	},
];

export const customFieldCreateDescription = updateDisplayOptions({ show: { operation: ['create'] } }, properties);
