import type { INodeProperties } from 'n8n-workflow';

import { aweberLocator } from './descriptions';
import { reloadWhenListChanges } from './loadOptions/listNotChosen';

/* The custom field fields (descriptions only); their values are read and checked at request time in customFields.ts. */

export const customFieldLocator = aweberLocator({
	name: 'customFieldId',
	displayName: 'Custom Field',
	searchMethod: 'searchCustomFields',
	urlSegment: 'custom_fields',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/custom_fields/789',
	idPlaceholder: '789',
	description: 'A custom field of the chosen list',
});

const fieldNameFromList: INodeProperties = {
	displayName: 'Field Name or ID',
	name: 'name',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getCustomFieldNames', loadOptionsDependsOn: reloadWhenListChanges },
	default: '',
	description:
		'A custom field of the list. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const typedFieldName: INodeProperties = {
	displayName: 'Field Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Name of the custom field',
};

/**
 * Name / value pairs for custom fields (AWeber stores every value as text). Names are picked from the chosen
 * list's fields, or typed where no list is chosen.
 */
export function customFieldsProperty(description: string, options: { listChosen?: boolean } = {}): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Custom Field',
		default: {},
		description,
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					options.listChosen === false ? typedFieldName : fieldNameFromList,
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: 'The value (as text)',
					},
				],
			},
		],
	};
}
