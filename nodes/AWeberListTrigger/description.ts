import type { INodeProperties } from 'n8n-workflow';

import { accountLocator, listLocator } from '../shared/descriptions';
import { engagementProperties } from './engagementDescription';
import { DEFAULT_MAX_EVENTS_PER_POLL } from './pollEvents';

export const aweberPollTriggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		required: true,
		default: 'subscriberAdded',
		options: [
			{
				name: 'Broadcast Opened',
				value: 'broadcastOpened',
				description: "A subscriber opened a sent broadcast for the first time (AWeber's broadcast opens)",
			},
			{
				name: 'Broadcast Sent',
				value: 'broadcastSent',
				description: 'A broadcast of the list started sending (AWeber lists it as sent from then on), by its sent_at time',
			},
			{
				name: 'Link Clicked',
				value: 'linkClicked',
				description: 'A subscriber clicked a link in a sent broadcast: each click, with its URL',
			},
			{
				name: 'New Subscriber',
				value: 'subscriberAdded',
				description: 'A subscriber was added to the list (any status), by its subscribed_at time',
			},
			{
				name: 'Subscriber Unsubscribed',
				value: 'subscriberUnsubscribed',
				description: 'A subscriber of the list unsubscribed, by its unsubscribed_at time',
			},
		],
	},
	accountLocator,
	listLocator,
	...engagementProperties,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Max Events per Poll',
				name: 'maxEventsPerPoll',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_EVENTS_PER_POLL,
				description:
					'Most events one poll emits. A larger backlog is emitted oldest first over the following polls, none lost.',
			},
		],
	},
];
