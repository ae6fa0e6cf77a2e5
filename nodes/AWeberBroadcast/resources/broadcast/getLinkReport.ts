import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';

/** AWeber's 2.0-beta link report (docs/aweber-behaviour.md#beta-link-report): outside /1.0, by UUID. */
export const LINK_REPORT_PATH = '/2.0-beta/analytics/reports/broadcasts-links';

const properties: INodeProperties[] = [
	{
		displayName:
			"This uses AWeber's 2.0-beta API, which AWeber says may change without notice and recommends for testing and development only",
		name: 'linkReportBetaNotice',
		type: 'notice',
		default: '',
	},
	...listScopeLocators(),
	{ ...broadcastLocator, description: 'A sent broadcast; the node reads its UUID, which the beta API needs' },
	{
		displayName: 'Report On',
		name: 'linkReportFilter',
		type: 'options',
		default: 'clicks',
		options: [
			{ name: 'Clicks', value: 'clicks', description: 'Clicks on the links in the email' },
			{ name: 'Page Views', value: 'pageviews', description: 'Views of the pages the broadcast links to' },
		],
		description: 'Which interactions to count per URL',
		routing: { send: { type: 'query', property: 'filter' } },
	},
	{
		displayName: 'Sort By',
		name: 'linkReportSortBy',
		type: 'options',
		default: 'unique',
		options: [
			{ name: 'Unique Count', value: 'unique', description: 'How many subscribers interacted with the URL' },
			{ name: 'Total Count', value: 'total', description: 'How many interactions the URL had' },
		],
		routing: { send: { type: 'query', property: 'sort_by' } },
	},
	{
		displayName: 'Sort Order',
		name: 'linkReportSortOrder',
		type: 'options',
		default: 'desc',
		options: [
			{ name: 'Most First', value: 'desc' },
			{ name: 'Fewest First', value: 'asc' },
		],
		routing: { send: { type: 'query', property: 'sort_asc', value: '={{ $value === "asc" ? "true" : "false" }}' } },
	},
	...collectionPaging('page_size'),
	{
		displayName: 'Options',
		name: 'linkReportOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Minimum Unique Count',
				name: 'minCount',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 1,
				description: 'Leave out URLs fewer subscribers interacted with',
				routing: { send: { type: 'query', property: 'min_count' } },
			},
			{
				displayName: 'Maximum Unique Count',
				name: 'maxCount',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 100,
				description: 'Leave out URLs more subscribers interacted with',
				routing: { send: { type: 'query', property: 'max_count' } },
			},
		],
	},
];

export const broadcastGetLinkReportDescription = updateDisplayOptions({ show: { operation: ['getLinkReport'] } }, properties);
