import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { customFieldLocator } from '../../../shared/customFieldProperties';
import { checkText, TRIMMED_TEXT } from '../../../shared/fieldValidation';
import { listScopeLocators } from '../../../shared/listScope';
import { refusingBadInput } from './hooks';

/** AWeber accepts an empty PATCH, which would silently do nothing; say so instead. */
async function requireCustomFieldChange(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('updateFields', {}) as { name?: unknown; isSubscriberUpdateable?: boolean };
	if (Object.keys(fields).length === 0) {
		throw new NodeOperationError(this.getNode(), 'No change given', {
			description: 'Add "Name" or "Subscriber Can Update" under "Update Fields".',
			itemIndex: this.getItemIndex(),
		});
	}
	if ('name' in fields) checkText(this, fields.name, 'Name');
	return requestOptions;
}

const properties: INodeProperties[] = [
	...listScopeLocators(),
	customFieldLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		routing: { send: { preSend: [refusingBadInput(requireCustomFieldChange)] } },
		options: [
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'New name of the custom field. Renaming can break sign-up forms and personalization that use the old name.',
				routing: { send: { type: 'body', property: 'name', value: TRIMMED_TEXT } },
			},
			{
				displayName: 'Subscriber Can Update',
				name: 'isSubscriberUpdateable',
				type: 'boolean',
				default: false,
				description: 'Whether subscribers may change the value themselves (from their subscription settings)',
				routing: { send: { type: 'body', property: 'is_subscriber_updateable' } },
			},
		],
	},
];

export const customFieldUpdateDescription = updateDisplayOptions({ show: { operation: ['update'] } }, properties);
