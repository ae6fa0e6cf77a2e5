import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../shared/campaignLocators';
import { DEFAULT_WINDOW_DAYS } from './engagementEvents';

const forEngagement = { event: ['broadcastOpened', 'linkClicked'] };

/*
 * The cost in the descriptions: n8n polls every minute by default, and AWeber allows 120 calls a minute per account
 * (shared with every app). 3 broadcasts in the window: 3 calls a minute, 2.5 % of it (the window look-up takes the turn
 * of one broadcast's read each poll, engagementEvents.ts).
 */
export const engagementProperties: INodeProperties[] = [
	{
		displayName: 'Broadcasts',
		name: 'broadcastScope',
		type: 'options',
		default: 'window',
		description:
			"Whose opens or clicks are watched. An idle poll costs at most one call per broadcast in the window (1 when there is none): the look-up of the window and the broadcasts' reads take turns, one skipped each poll, so an open or click (or a broadcast just sent) can come one poll late, never lost. With 3 broadcasts, 3 calls a minute at n8n's default poll interval (every minute), 2.5% of the account's 120 per minute. One Broadcast: 1 call a minute, under 1%.",
		displayOptions: { show: forEngagement },
		options: [
			{
				name: 'Sent Within the Window',
				value: 'window',
				description:
					"The list's broadcasts sent within the last Window (Days). An idle poll makes at most one call per broadcast in the window (1 when there is none), skipping one turn in rotation (the look-up or one broadcast's read), so events can come one poll late: with 3 broadcasts, 3 calls a minute at n8n's default poll interval (every minute), 2.5% of the account's 120 per minute.",
			},
			{
				name: 'One Broadcast',
				value: 'chosen',
				description: "Only the chosen broadcast. An idle poll makes one call: at n8n's default poll interval (every minute), under 1% of the account's 120 per minute.",
			},
		],
	},
	{
		displayName: 'Window (Days)',
		name: 'windowDays',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: DEFAULT_WINDOW_DAYS,
		displayOptions: { show: { ...forEngagement, broadcastScope: ['window'] } },
		description:
			"Broadcasts sent this many days back are watched, older ones are left. Each one costs at most a call per poll (the look-up of the window takes one broadcast's turn in rotation, so that broadcast's events come one poll later): 3 broadcasts in the window are 3 of the account's 120 calls a minute (2.5%) at n8n's default poll interval (every minute).",
	},
	{
		...broadcastLocator,
		description: 'The broadcast whose opens or clicks start the workflow (one call per poll)',
		displayOptions: { show: { ...forEngagement, broadcastScope: ['chosen'] } },
	},
];
