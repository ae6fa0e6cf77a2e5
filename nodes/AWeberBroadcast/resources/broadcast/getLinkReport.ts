import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { broadcastLocator } from '../../../shared/campaignLocators';
import { isCollectionPage, linkHeaderPage } from '../../../shared/collections';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators, shownFor } from '../../../shared/listScope';
import { readPathParameter } from '../../../shared/pathParameters';
import { apiBaseUrlOf, aweberGet } from '../../../shared/transport';

const showOnlyForBroadcastGetLinkReport = { operation: ['getLinkReport'] };

/** AWeber's 2.0-beta link report (docs/aweber-behaviour.md#beta-link-report): outside /1.0, by UUID. */
export const LINK_REPORT_PATH = '/2.0-beta/analytics/reports/broadcasts-links';

export const broadcastGetLinkReportDescription: INodeProperties[] = [
	{
		displayName:
			"This uses AWeber's 2.0-beta API, which AWeber says may change without notice and recommends for testing and development only",
		name: 'linkReportBetaNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: showOnlyForBroadcastGetLinkReport },
	},
	...listScopeLocators(showOnlyForBroadcastGetLinkReport),
	shownFor({ ...broadcastLocator, description: 'A sent broadcast; the node reads its UUID, which the beta API needs' }, showOnlyForBroadcastGetLinkReport),
	{
		displayName: 'Report On',
		name: 'linkReportFilter',
		type: 'options',
		default: 'clicks',
		displayOptions: { show: showOnlyForBroadcastGetLinkReport },
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
		displayOptions: { show: showOnlyForBroadcastGetLinkReport },
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
		displayOptions: { show: showOnlyForBroadcastGetLinkReport },
		options: [
			{ name: 'Most First', value: 'desc' },
			{ name: 'Fewest First', value: 'asc' },
		],
		routing: { send: { type: 'query', property: 'sort_asc', value: '={{ $value === "asc" ? "true" : "false" }}' } },
	},
	...collectionPaging(showOnlyForBroadcastGetLinkReport, 'page_size'),
	{
		displayName: 'Options',
		name: 'linkReportOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForBroadcastGetLinkReport },
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

function uuidOf(context: IExecuteSingleFunctions, body: IDataObject, what: string): string {
	if (typeof body.uuid === 'string' && body.uuid !== '') return body.uuid;
	throw new NodeOperationError(context.getNode(), `AWeber gave no UUID for the ${what}`, {
		description: "The link report (beta) identifies accounts and broadcasts by UUID, which AWeber's answer did not include.",
		itemIndex: context.getItemIndex(),
	});
}

/**
 * The beta API takes the account and broadcast by UUID: reads both from the account and broadcast chosen
 * (two GETs through the request path), and sends them as `account_id` and `broadcast_id`.
 */
export async function linkReportIdentifiers(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const accountId = readPathParameter(this, 'accountId');
	const listId = readPathParameter(this, 'listId');
	const broadcastId = readPathParameter(this, 'broadcastId');
	const itemIndex = this.getItemIndex();
	const account = await aweberGet(this, `/accounts/${accountId}`, undefined, { itemIndex });
	const broadcast = await aweberGet(this, `/accounts/${accountId}/lists/${listId}/broadcasts/${broadcastId}`, undefined, { itemIndex });
	requestOptions.qs = {
		...requestOptions.qs,
		account_id: uuidOf(this, account, 'account'),
		broadcast_id: uuidOf(this, broadcast, 'broadcast'),
	};
	// Outside /1.0, on the credential's API host: set here, since n8n 1.x does not take a routing baseURL expression.
	requestOptions.baseURL = await apiBaseUrlOf(this);
	requestOptions.url = LINK_REPORT_PATH;
	return requestOptions;
}

/**
 * A page of the report (a bare array, the next page in the `Link` header) as a collection page, so the routed
 * entry reads the further pages through the collection reader (collections.ts); later pages arrive as pages already.
 */
export async function linkReportPage(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	if (isCollectionPage(response.body)) return items;
	const page = linkHeaderPage(response.body, response.headers);
	return page === undefined ? items : [{ json: page as unknown as IDataObject }];
}
