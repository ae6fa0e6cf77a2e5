import type { IDataObject } from 'n8n-workflow';

import { AWEBER_MAX_PAGE_SIZE } from './constants';
import { aweberApiRequest, type AweberContext } from './transport';

/**
 * The one reader of AWeber collections (docs/aweber-behaviour.md#collections). It serves the routed
 * Return All (routing.ts), the list searches, the custom field names and the poll trigger's streams.
 */

/** One page of an AWeber collection: offset pages (`ws.start`/`ws.size`, `total_size`) and cursor pages alike. */
export interface CollectionPage<T = IDataObject> {
	entries: T[];
	next_collection_link?: string;
	total_size?: number;
}

/** AWeber collections (offset or cursor pages) all carry `entries`; single resources never do. */
export function isCollectionPage(body: unknown): body is CollectionPage {
	return typeof body === 'object' && body !== null && Array.isArray((body as IDataObject).entries);
}

/**
 * The `rel="next"` URL of an RFC 8288 `Link` header: how AWeber's 2.0-beta API links its pages, whose body is a
 * bare array (docs/aweber-behaviour.md#beta-link-report).
 */
export function nextLinkOf(header: unknown): string | undefined {
	const value = Array.isArray(header) ? header.join(', ') : typeof header === 'string' ? header : '';
	for (const part of value.split(/,(?=\s*<)/)) {
		const match = /^\s*<([^>]*)>(.*)$/.exec(part);
		if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2])) return match[1];
	}
	return undefined;
}

/** A page of the 2.0-beta API (a bare array, the next page in the `Link` header) as a collection page. */
export function linkHeaderPage(body: unknown, headers: IDataObject | undefined): CollectionPage | undefined {
	if (!Array.isArray(body)) return undefined;
	const next = nextLinkOf(headers?.link ?? headers?.Link);
	return next === undefined ? { entries: body as IDataObject[] } : { entries: body as IDataObject[], next_collection_link: next };
}

/**
 * Pages of one collection read at the same time when their links are known in advance. AWeber answers a
 * page in a few hundred milliseconds; reading a few at once makes Return All on a big list several times
 * faster, while the account's limiter still paces every request and caps those in flight.
 */
const PAGES_READ_AHEAD = 3;

/**
 * Reads one page: the first page of `path` (a path under /1.0 with the largest page size unless `qs` says
 * otherwise), or a link AWeber handed out earlier (`next_collection_link`, a picker's pagination token).
 * Absolute links are checked against the credential's API origin before anything is sent (origin.ts), and
 * `source` names where the link came from in that error.
 */
export async function readCollectionPage<T = IDataObject>(
	context: AweberContext,
	pathOrLink: string,
	options: { qs?: IDataObject; source?: string; itemIndex?: number; concurrent?: boolean } = {},
): Promise<CollectionPage<T>> {
	const isLink = /^https?:\/\//i.test(pathOrLink);
	const qs = isLink ? options.qs : { 'ws.size': AWEBER_MAX_PAGE_SIZE, ...options.qs };
	const response = await aweberApiRequest(context, {
		method: 'GET',
		url: pathOrLink,
		qs,
		source: options.source,
		itemIndex: options.itemIndex,
		concurrent: options.concurrent,
	});
	const page = isCollectionPage(response.body) ? response.body : linkHeaderPage(response.body, response.headers as IDataObject);
	return (page ?? { entries: [] }) as CollectionPage<T>;
}

export interface ReadOnOptions<T> {
	/** Stop once this many entries were read, counting the first page's (Infinity: every page). */
	limit?: number;
	itemIndex?: number;
	/**
	 * Shapes the entries of each further page as it arrives (the operation's output shaping, routing.ts), so a
	 * long read never holds every raw page and every shaped one at once.
	 */
	shapeEntries?: (entries: T[]) => Promise<T[]>;
}

/**
 * Every entry of a collection from its first page on, following `next_collection_link` until the end or
 * the limit. Offset collections that state their size have their further page links known in advance:
 * those are read a few at once, and returned in order.
 */
export async function readRemainingEntries<T = IDataObject>(
	context: AweberContext,
	first: CollectionPage<T>,
	options: ReadOnOptions<T> = {},
): Promise<T[]> {
	const limit = options.limit !== undefined && options.limit > 0 ? options.limit : Infinity;
	const entries: T[] = [...first.entries];
	const { shapeEntries } = options;
	const readPage = async (link: string) => {
		const page = await readCollectionPage<T>(context, link, {
			source: 'the next_collection_link (or Link header) of an AWeber page',
			itemIndex: options.itemIndex,
			concurrent: true,
		});
		return shapeEntries && page.entries.length > 0 ? { ...page, entries: await shapeEntries(page.entries) } : page;
	};

	let page: CollectionPage<T> | undefined = first;
	const knownLinks = offsetPageLinks(first, limit);
	if (knownLinks.length > 0) {
		const pages = await readInOrder(knownLinks, readPage);
		for (const read of pages) entries.push(...read.entries);
		// A list that grew while it was read has more pages than its size said: follow them as below.
		page = pages[pages.length - 1];
	}
	while (page?.next_collection_link && entries.length < limit) {
		// The link is absolute and already carries the query (ws.op, filters, cursor).
		page = await readPage(sizedNextLink(page.next_collection_link, limit - entries.length));
		entries.push(...page.entries);
	}
	return entries.length > limit ? entries.slice(0, limit) : entries;
}

/** Every entry of the collection at `path` (all pages). */
export async function readAllEntries<T = IDataObject>(context: AweberContext, path: string, qs?: IDataObject): Promise<T[]> {
	return await readRemainingEntries(context, await readCollectionPage<T>(context, path, { qs }));
}

/** Ask the next page for no more entries than are still wanted (AWeber's links carry ws.size or page_size). */
function sizedNextLink(link: string, stillWanted: number): string {
	if (!Number.isFinite(stillWanted) || stillWanted >= AWEBER_MAX_PAGE_SIZE) return link;
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		return link;
	}
	for (const sizeParameter of ['ws.size', 'page_size']) {
		if (url.searchParams.has(sizeParameter)) url.searchParams.set(sizeParameter, String(stillWanted));
	}
	return url.toString();
}

/**
 * The links of every further page of an offset collection that states its size (`total_size`, plain
 * collections such as a list's subscribers), up to the limit; none for cursor pages or `find` results,
 * whose next page is only known from the previous one.
 */
function offsetPageLinks(first: CollectionPage<unknown>, limit: number): string[] {
	if (!first.next_collection_link || typeof first.total_size !== 'number') return [];
	let next: URL;
	try {
		next = new URL(first.next_collection_link);
	} catch {
		return [];
	}
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
