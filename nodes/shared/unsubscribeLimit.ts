import type { INodeProperties } from 'n8n-workflow';

/* The options of the guard against emptying a list (unsubscribeGuard.ts checks them at request time). */

/** 10 %: a nightly sync removes a few percent at most; more is far likelier a broken source than a real night. */
export const DEFAULT_UNSUBSCRIBE_LIMIT_PERCENT = 10;

export const unsubscribeLimitOptions: INodeProperties[] = [
	{
		displayName: 'Most to Unsubscribe (%)',
		name: 'unsubscribeLimitPercent',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: DEFAULT_UNSUBSCRIBE_LIMIT_PERCENT,
		description:
			"The most one run may unsubscribe, as a share of the list's subscribed subscribers (one is always allowed). A run that would unsubscribe more is refused before anything is written, so a sync whose source came back empty does not empty the list.",
	},
	{
		displayName: 'Most to Unsubscribe (Count)',
		name: 'unsubscribeLimitCount',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'The most one run may unsubscribe, as a number of subscribers; when set above 0, it is used instead of the share',
	},
];
