import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { listScopeLocators } from '../../../shared/listScope';

/** AWeber's statistic ids (the reference's path enum): totals, then time series (hourly = first 24 h, daily = first 14 days), then top-10 lists. */
const STATISTICS: Array<{ name: string; value: string; description: string }> = [
	{ value: 'total_opens', name: 'Total Opens', description: 'Number of opens' },
	{ value: 'unique_opens', name: 'Unique Opens', description: 'Number of subscribers who opened' },
	{ value: 'total_clicks', name: 'Total Clicks', description: 'Number of clicks' },
	{ value: 'unique_clicks', name: 'Unique Clicks', description: 'Number of subscribers who clicked' },
	{ value: 'total_sales', name: 'Total Sales', description: 'Number of sales' },
	{ value: 'total_sales_dollars', name: 'Total Sales Dollars', description: 'Sales amount in dollars' },
	{ value: 'total_unsubscribed', name: 'Total Unsubscribed', description: 'Number of unsubscribes' },
	{ value: 'hourly_opens', name: 'Hourly Opens', description: 'Opens per hour over the first 24 hours' },
	{ value: 'hourly_clicks', name: 'Hourly Clicks', description: 'Clicks per hour over the first 24 hours' },
	{ value: 'hourly_webhits', name: 'Hourly Web Hits', description: 'Web hits per hour over the first 24 hours' },
	{ value: 'hourly_sales', name: 'Hourly Sales', description: 'Sales per hour over the first 24 hours' },
	{ value: 'hourly_unsubscribed', name: 'Hourly Unsubscribes', description: 'Unsubscribes per hour over the first 24 hours' },
	{ value: 'daily_opens', name: 'Daily Opens', description: 'Opens per day over the first 14 days' },
	{ value: 'daily_clicks', name: 'Daily Clicks', description: 'Clicks per day over the first 14 days' },
	{ value: 'daily_webhits', name: 'Daily Web Hits', description: 'Web hits per day over the first 14 days' },
	{ value: 'daily_sales', name: 'Daily Sales', description: 'Sales per day over the first 14 days' },
	{ value: 'daily_unsubscribed', name: 'Daily Unsubscribes', description: 'Unsubscribes per day over the first 14 days' },
	{ value: 'clicks_by_link', name: 'Clicks by Link', description: 'The 10 most clicked links' },
	{ value: 'webhits_by_link', name: 'Web Hits by Link', description: 'The 10 links with most web hits' },
	{ value: 'opens_by_subscriber', name: 'Opens by Subscriber', description: 'The 10 subscribers with most opens' },
	{ value: 'sales_by_subscriber', name: 'Sales by Subscriber', description: 'The 10 subscribers with most sales' },
];

const properties: INodeProperties[] = [
	...listScopeLocators(),
	{ ...broadcastLocator, description: 'A sent broadcast (AWeber has statistics only once it is sent)' },
	{
		displayName: 'Statistic',
		name: 'statisticId',
		type: 'options',
		required: true,
		default: 'total_opens',
		options: STATISTICS,
		description: 'Which statistic to read',
	},
];

export const broadcastGetStatisticDescription = updateDisplayOptions({ show: { operation: ['getStatistic'] } }, properties);
