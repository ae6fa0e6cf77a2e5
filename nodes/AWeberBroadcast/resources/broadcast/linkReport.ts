import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { linkHeaderPage } from '../../../shared/collections';
import { readPathParameter } from '../../../shared/pathParameters';
import { apiBaseUrlOf } from '../../../shared/accountSettings';
import { aweberGet } from '../../../shared/transport';
import { LINK_REPORT_PATH } from './getLinkReport';

/* Get Link Report's request-time functions (its fields are in getLinkReport.ts). */

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
 * entry reads the further pages through the collection reader (collections.ts); later pages arrive as pages already
 * (no bare array: left as they are).
 */
export async function linkReportPage(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const page = linkHeaderPage(response.body, response.headers);
	return page === undefined ? items : [{ json: page as unknown as IDataObject }];
}
