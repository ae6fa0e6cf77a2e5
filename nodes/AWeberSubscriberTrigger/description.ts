import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, listLocator } from '../shared/descriptions';
import { ACCEPT_UNSIGNED_OPTION } from './verificationKey';

const showForOneList = { show: { filterByList: [true] } };

export const aweberTriggerProperties: INodeProperties[] = [
	{
		displayName:
			"AWeber has no API to register webhooks; set this up once by hand. 1) In AWeber's developer portal (labs.aweber.com, your app), enable webhooks, choose the events, and add your n8n base URL (for example https://n8n.example.com/webhook/) to the Callback URL Allow-list. 2) In AWeber's control panel, My Apps, paste this node's Production URL (Webhook URLs, above) as the app's Webhook URL, then activate the workflow. 3) Copy the app's Verification Key into the credential's Webhook Verification Key field: without it, the trigger refuses every delivery and the workflow cannot be activated.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['subscriber.added'],
		description: 'The subscriber events that start the workflow. The AWeber app must be set to send them too.',
		options: [
			{
				name: 'Subscriber Added',
				value: 'subscriber.added',
				description: 'A subscriber was added to a list, confirmed or not',
			},
			{
				name: 'Subscriber Subscribed',
				value: 'subscriber.subscribed',
				description: 'A subscriber became subscribed (single opt-in add, or confirmation on a confirmed opt-in list)',
			},
			{
				name: 'Subscriber Unsubscribed',
				value: 'subscriber.unsubscribed',
				description: 'A subscriber unsubscribed or was unsubscribed',
			},
		],
	},
	{
		displayName: 'Only One List',
		name: 'filterByList',
		type: 'boolean',
		default: false,
		description: 'Whether to start the workflow only for events of one list (AWeber sends the events of every list)',
	},
	{ ...accountLocator, displayOptions: showForOneList },
	{ ...listLocator, displayOptions: showForOneList },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Date Window (Minutes)',
				name: 'dateWindowMinutes',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 5,
				description:
					"How far a signed delivery's Date may be from n8n's clock. Older deliveries are refused as replays; widen it only if the clocks disagree.",
			},
			{
				...ACCEPT_UNSIGNED_OPTION,
				type: 'boolean',
				default: false,
				description:
					"Whether to run the workflow for deliveries that cannot be verified because the credential has no Webhook Verification Key. Anyone who knows your app's client ID can then start this workflow; items are marked verified: false. With a key set, this option changes nothing.",
			},
		],
	},
];
