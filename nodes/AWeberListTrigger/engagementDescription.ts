import type { INodeProperties } from 'n8n-workflow';

import { broadcastLocator } from '../shared/campaignLocators';
import { DEFAULT_WINDOW_DAYS } from './engagementEvents';

const forEngagement = { event: ['broadcastOpened', 'linkClicked'] };

/*
 * The cost in the descriptions: n8n polls every minute by default, and AWeber allows 120 calls a minute per account
 * (shared with every app). 3 broadcasts in the window: 3 + 1 calls a minute, 3 % of it.
 */
export const engagementProperties: INodeProperties[] = [
	{
		displayName: 'Broadcasts',
		name: 'broadcastScope',
		type: 'options',
		default: 'window',
		description:
			"Whose opens or clicks are watched. An idle poll costs one call per broadcast in the window plus one to list them: with 3 broadcasts, 4 calls a minute at n8n's default poll interval (every minute), 3% of the account's 120 per minute. One Broadcast: 1 call a minute, under 1%.",
		displayOptions: { show: forEngagement },
		options: [
			{
				name: 'Sent Within the Window',
				value: 'window',
				description:
					"The list's broadcasts sent within the last Window (Days). An idle poll makes one call per broadcast in the window plus one to list them: with 3 broadcasts, 4 calls a minute at n8n's default poll interval (every minute), 3% of the account's 120 per minute.",
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
			"Broadcasts sent this many days back are watched, older ones are left. Each one costs a call per poll: 3 broadcasts in the window, plus the call that lists them, are 4 of the account's 120 calls a minute at n8n's default poll interval (every minute).",
	},
	{
		...broadcastLocator,
		description: 'The broadcast whose opens or clicks start the workflow (one call per poll)',
		displayOptions: { show: { ...forEngagement, broadcastScope: ['chosen'] } },
	},
];
