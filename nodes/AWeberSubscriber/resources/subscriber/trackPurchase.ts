import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { customFieldsProperty } from '../../../shared/customFieldProperties';
import { listScopeLocators } from '../../../shared/listScope';
import { tagsProperty } from '../../../shared/tags';
import { addOutputProperty, adTrackingField, miscNotesField, nameField } from './fields';
import { outputPurchaseSubscriber, summarizePurchase } from './hooks';

function requiredText(name: string, displayName: string, description: string, placeholder?: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		required: true,
		default: '',
		placeholder,
		description,
	};
}

const properties: INodeProperties[] = [
	...listScopeLocators(),
	requiredText('email', 'Email', 'The buyer\'s email address; a subscriber is added when it is not on the list yet', 'name@email.com'),
	requiredText('ipAddress', 'IP Address', 'The buyer\'s public IP address', '204.194.222.28'),
	requiredText('productName', 'Product Name', 'What was bought', 'Trail Jacket'),
	{
		displayName: 'Value',
		name: 'value',
		type: 'number',
		required: true,
		typeOptions: { numberPrecision: 2 },
		default: 0,
		description: 'The amount of the sale',
	},
	{ ...requiredText('currency', 'Currency', 'Three-letter ISO currency code of the value', 'USD'), default: 'USD' },
	requiredText('vendor', 'Vendor', 'The sales tracking profile (vendor) the sale belongs to', 'My Store'),
	requiredText('url', 'URL', 'The web address where the sale happened', 'https://example.com/checkout/complete'),
	requiredText('eventNote', 'Event Note', 'A note about this sale, such as an order number', 'Order 1001'),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			adTrackingField,
			customFieldsProperty(
				'Custom field values for the buyer (names match ignoring case). A name that is not a custom field of the list is an error listing the list\'s fields.',
			),
			{
				displayName: 'Event Time',
				name: 'eventTime',
				type: 'dateTime',
				default: '',
				description: 'When the sale happened (default: now)',
			},
			miscNotesField,
			nameField,
			tagsProperty({
				name: 'tags',
				displayName: 'Tag Names or IDs',
				purpose: 'Tags to give the buyer',
			}),
		],
	},
	addOutputProperty({
		subscriber: outputPurchaseSubscriber,
		summary: summarizePurchase,
		summaryHas: "The buyer's ID and link, the link to their activity (where the sale shows up), the list and the fields sent",
	}),
];

export const subscriberTrackPurchaseDescription = updateDisplayOptions({ show: { operation: ['trackPurchase'] } }, properties);
