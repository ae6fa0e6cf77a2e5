import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { AWEBER_MAX_PAGE_SIZE } from './constants';
import { sendWithAweberPolicies } from './transport';

interface CollectionPage {
	entries: IDataObject[];
	next_collection_link?: string;
	total_size?: number;
}

/**
 * Pages of one collection read at the same time when their links are known in advance. AWeber answers a
 * page in a few hundred milliseconds; reading a few at once makes Return All on a big list several times
 * faster, while the account's limiter still paces every request and caps those in flight.
 */
const PAGES_READ_AHEAD = 3;

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

function absoluteUrl(baseURL: string | undefined, url: string | undefined): string | undefined {
	if (!url || /^https?:\/\//.test(url)) return url;
	return baseURL ? `${baseURL.replace(/\/+$/, '')}${url.startsWith('/') ? '' : '/'}${url}` : url;
}

/**
 * Copies of the parts n8n's HTTP helpers modify (signing adds headers, empty bodies are removed), so each
 * attempt of a retried request starts from the node's request as built.
 */
function freshRequest(requestData: DeclarativeRestApiSettings.ResultOptions, url?: string): DeclarativeRestApiSettings.ResultOptions {
	const { options } = requestData;
	return {
		...requestData,
		options: {
			...options,
			headers: { ...options.headers },
			...(url === undefined ? { qs: { ...options.qs } } : { url, qs: {} }),
		},
	};
}

/**
 * What the node outputs when a retried add subscriber turned out to have been carried out by an earlier
 * attempt: the node's own postReceive run on AWeber's answer to a successful add (201 + Location), so the
 * output is the same as on the normal path. A node without postReceive functions gets the subscriber.
 */
async function asCreated(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	location: string,
	subscriber: IDataObject,
): Promise<INodeExecutionData[]> {
	const actions = requestData.postReceive.flatMap((postReceive) => postReceive.actions);
	if (actions.length === 0 || actions.some((action) => typeof action !== 'function')) return [{ json: subscriber }];
	const response: IN8nHttpFullResponse = { statusCode: 201, headers: { location }, body: '' };
	let items: INodeExecutionData[] = [{ json: {} }];
	for (const action of actions) {
		if (typeof action === 'function') items = await action.call(context, items, response);
	}
	return items;
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
	const { method = 'GET', baseURL, url, body } = requestData.options;
	const firstResponse = await sendWithAweberPolicies(
		this,
		{
			method,
			url: absoluteUrl(baseURL, url),
			body,
			itemIndex,
			asCreated: async (location, subscriber) => await asCreated(this, requestData, location, subscriber),
		},
		async () => await this.makeRoutingRequest(freshRequest(requestData)),
	);
	let page = asCollectionPage(firstResponse);
	if (!page) return firstResponse;

	const limit = resultLimit(requestData.maxResults);
	const items: INodeExecutionData[] = page.entries.map((json) => ({ json }));
	const readPage = async (url: string) =>
		asCollectionPage(
			await sendWithAweberPolicies(this, { method: 'GET', url, itemIndex, concurrent: true }, async () =>
				await this.makeRoutingRequest(freshRequest(requestData, url)),
			),
		);

	const knownLinks = offsetPageLinks(page, limit);
	if (knownLinks.length > 0) {
		const pages = await readInOrder(knownLinks, readPage);
		for (const read of pages) for (const json of read?.entries ?? []) items.push({ json });
		// A list that grew while it was read has more pages than its size said: follow them as below.
		page = pages[pages.length - 1];
	}
	while (page?.next_collection_link && items.length < limit) {
		// The link is absolute and already carries the query (ws.op, filters, cursor).
		page = await readPage(sizedNextLink(page.next_collection_link, limit - items.length));
		for (const json of page?.entries ?? []) items.push({ json });
	}
	return items.length > limit ? items.slice(0, limit) : items;
}

/**
 * The links of every further page of an offset collection that states its size (`total_size`, plain
 * collections such as a list's subscribers), up to the Limit; none for cursor pages or `find` results,
 * whose next page is only known from the previous one.
 */
function offsetPageLinks(first: CollectionPage, limit: number): string[] {
	if (!first.next_collection_link || typeof first.total_size !== 'number') return [];
	const next = new URL(first.next_collection_link);
	const start = Number(next.searchParams.get('ws.start'));
	const size = Number(next.searchParams.get('ws.size'));
	if (!(start > 0) || !(size > 0)) return [];
	const end = Math.min(first.total_size, start - first.entries.length + limit);
	const links: string[] = [];
	for (let pageStart = start; pageStart < end; pageStart += size) {
		next.searchParams.set('ws.start', String(pageStart));
		next.searchParams.set('ws.size', String(Math.min(size, end - pageStart)));
		links.push(next.toString());
	}
	return links;
}

/** Reads the pages a few at a time and returns them in their order. */
async function readInOrder<T>(links: string[], readPage: (link: string) => Promise<T>): Promise<T[]> {
	const pages: T[] = new Array<T>(links.length);
	let nextIndex = 0;
	let failed = false;
	const reader = async () => {
		while (nextIndex < links.length && !failed) {
			const index = nextIndex++;
			let read = false;
			try {
				pages[index] = await readPage(links[index]);
				read = true;
			} finally {
				// The node fails with this page's error: the other readers stop asking for pages.
				if (!read) failed = true;
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(PAGES_READ_AHEAD, links.length) }, reader));
	return pages;
}
