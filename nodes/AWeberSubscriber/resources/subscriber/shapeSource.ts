import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { customFieldsProperty } from '../../../shared/customFieldProperties';
import { listScopeLocators } from '../../../shared/listScope';
import { tagsProperty } from '../../../shared/tags';
import { ignoreUnknownCustomFieldsOption, nameField } from './fields';

/** The fields of a source contact, as Create has them; the output is Get Many's "Shape for Comparison" (sourceContact.ts). */
const properties: INodeProperties[] = [
	...listScopeLocators(),
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: "The contact's email address, from the source's column (output in lower case, spaces around it removed)",
	},
	{ ...nameField, routing: undefined, description: "The contact's name (spaces around it removed)" },
	tagsProperty({ name: 'tags', displayName: 'Tag Names or IDs', purpose: "The contact's tags (each once, sorted)" }),
	customFieldsProperty(
		'Values for the list\'s custom fields (names match ignoring case; numbers and true/false become text). Every custom field of the list is output, "" where none is given here.',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [ignoreUnknownCustomFieldsOption],
	},
];

export const subscriberShapeSourceDescription = updateDisplayOptions({ show: { operation: ['shapeSource'] } }, properties);
