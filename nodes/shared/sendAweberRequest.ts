import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { AWEBER_MAX_PAGE_SIZE } from './constants';
import { sendWithAweberPolicies } from './transport';

interface CollectionPage {
	entries: IDataObject[];
	next_collection_link?: string;
}

/** AWeber collections (offset or cursor pages) all carry `entries`; single resources never do. */
function asCollectionPage(items: INodeExecutionData[]): CollectionPage | undefined {
	if (items.length !== 1) return undefined;
	const body = items[0].json as IDataObject;
	return Array.isArray(body?.entries) ? (body as unknown as CollectionPage) : undefined;
}

function resultLimit(maxResults: unknown): number {
	const limit = Number(maxResults);
	return Number.isFinite(limit) && limit > 0 ? limit : Infinity;
}

/** Ask the next page for no more entries than are still wanted (AWeber's links carry ws.size or page_size). */
function sizedNextLink(link: string, stillWanted: number): string {
	if (!Number.isFinite(stillWanted) || stillWanted >= AWEBER_MAX_PAGE_SIZE) return link;
	const url = new URL(link);
	for (const sizeParameter of ['ws.size', 'page_size']) {
		if (url.searchParams.has(sizeParameter)) url.searchParams.set(sizeParameter, String(stillWanted));
	}
	return url.toString();
}

/**
 * Runs every routed AWeber request (wired in as `requestOperations.pagination`, see requestDefaults.ts):
 * the request goes out under the shared pacing/retry/error policies, and a collection is read page
 * by page through its `next_collection_link` until it ends or the node's Limit is reached, giving one
 * n8n item per entry.
 */
export async function sendAweberRequest(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	const method = requestData.options.method ?? 'GET';
	const firstResponse = await sendWithAweberPolicies(this, { method, itemIndex }, async () =>
		await this.makeRoutingRequest({ ...requestData, options: { ...requestData.options } }),
	);
	let page = asCollectionPage(firstResponse);
	if (!page) return firstResponse;

	const limit = resultLimit(requestData.maxResults);
	const items: INodeExecutionData[] = page.entries.map((json) => ({ json }));
	while (page?.next_collection_link && items.length < limit) {
		// The link is absolute and already carries the query (ws.op, filters, cursor).
		const url = sizedNextLink(page.next_collection_link, limit - items.length);
		const response = await sendWithAweberPolicies(this, { method: 'GET', itemIndex }, async () =>
			await this.makeRoutingRequest({ ...requestData, options: { ...requestData.options, url, qs: {} } }),
		);
		page = asCollectionPage(response);
		for (const json of page?.entries ?? []) items.push({ json });
	}
	return items;
}
