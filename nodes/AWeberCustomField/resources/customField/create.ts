import type { INodeProperties } from 'n8n-workflow';

import { requireFields, TRIMMED_TEXT } from '../../../shared/fieldValidation';
import { listScopeLocators } from '../../../shared/listScope';
import { refusingBadInput } from '../../../shared/transport';

const showOnlyForCustomFieldCreate = { operation: ['create'] };

export const customFieldCreateDescription: INodeProperties[] = [
	...listScopeLocators(showOnlyForCustomFieldCreate),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Company',
		description: 'Name of the new custom field; it must differ (ignoring case) from the list\'s other custom fields',
		displayOptions: { show: showOnlyForCustomFieldCreate },
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
