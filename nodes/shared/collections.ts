import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isCollectionPage, unexpectedAnswer, type CollectionPage } from './answers';
import { AWEBER_MAX_PAGE_SIZE } from './constants';
import { isAbsoluteLink } from './origin';
import type { AweberContext } from './aweberContext';
import { aweberApiRequest } from './transport';

/* The one reader of AWeber collections (docs/aweber-behaviour.md#collections, docs/architecture.md#return-all-reads-every-page). */


/** The answer as a collection page; a page without `entries` is never taken for the end of a collection. */
export function requireCollectionPage<T = IDataObject>(context: AweberContext, body: unknown, where: string, itemIndex?: number): CollectionPage<T> {
	if (!isCollectionPage(body)) throw unexpectedAnswer(context.getNode(), 'a page of an AWeber collection', body, where, itemIndex);
	return body as CollectionPage<T>;
}

/** A 2.0-beta page (a bare array, the next page its RFC 8288 `Link` rel="next", docs/aweber-behaviour.md#beta-link-report). */
export function linkHeaderPage(body: unknown, headers: IDataObject): CollectionPage | undefined {
	if (!Array.isArray(body)) return undefined;
	const header = headers.link ?? headers.Link;
	const value = Array.isArray(header) ? header.join(', ') : typeof header === 'string' ? header : '';
	for (const part of value.split(/,(?=\s*<)/)) {
		const match = /^\s*<([^>]*)>(.*)/.exec(part);
		if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2])) {
			return { entries: body as IDataObject[], next_collection_link: match[1] };
		}
	}
	return { entries: body as IDataObject[] };
}

/** Pages of one collection read at once when their links are known: Return All several times faster, still paced. */
const PAGES_READ_AHEAD = 3;

type PageOptions = { qs?: IDataObject; source?: string; itemIndex?: number; concurrent?: boolean };

/** The first page of a path under /1.0 (largest page size unless `qs` says otherwise), or a link AWeber handed out. */
export async function readCollectionPage<T = IDataObject>(
	context: AweberContext,
	pathOrLink: string,
	options: PageOptions = {},
): Promise<CollectionPage<T>> {
	return (await readCollectionPageAt<T>(context, pathOrLink, options)).page;
}

/** A page and when AWeber answered it (its `Date` header; this machine's clock without one), for the poll trigger. */
export async function readCollectionPageAt<T = IDataObject>(
	context: AweberContext,
	pathOrLink: string,
	options: PageOptions = {},
): Promise<{ page: CollectionPage<T>; answeredAt: number }> {
	const isLink = isAbsoluteLink(pathOrLink);
	const qs = isLink ? options.qs : { 'ws.size': AWEBER_MAX_PAGE_SIZE, ...options.qs };
	const { source, itemIndex, concurrent } = options;
	const response = await aweberApiRequest(context, { method: 'GET', url: pathOrLink, qs, source, itemIndex, concurrent });
	const body = linkHeaderPage(response.body, response.headers) ?? response.body;
	const page = requireCollectionPage<T>(context, body, `reading ${isLink ? 'the next page of a collection' : 'a collection'}`, options.itemIndex);
	const date = Date.parse(String(response.headers.date));
	return { page, answeredAt: Number.isNaN(date) ? Date.now() : date };
}

interface ReadOnOptions<T> {
	/** Entries wanted, the first page's included: a positive number, or Infinity (every page, as when left out). */
	limit?: number;
	itemIndex?: number;
	/** Reads a further page; the routed Return All reads it through n8n's routing, shaped as it arrives. */
	readPage?: (link: string) => Promise<CollectionPage<T>>;
}

export const NEXT_PAGE_SOURCE = 'the next_collection_link (or Link header) of an AWeber page';

/** Pages planned from `total_size` at most (a million entries); an absurd `total_size` still costs a few requests. */
const MAX_PLANNED_PAGES = 10_000;

/** Every entry from the first page on, to the end or the limit, bounded whatever AWeber says (docs/aweber-behaviour.md#collections). */
export async function readRemainingEntries<T = IDataObject>(
	context: AweberContext,
	first: CollectionPage<T>,
	options: ReadOnOptions<T> = {},
): Promise<T[]> {
	const limit = options.limit ?? Infinity;
	const entries: T[] = [...first.entries];
	const readLink =
		options.readPage ??
		(async (link: string) => await readCollectionPage<T>(context, link, { source: NEXT_PAGE_SOURCE, itemIndex: options.itemIndex, concurrent: true }));
	const read = new Set<string>();
	const readPage = async (link: string): Promise<CollectionPage<T>> => {
		const key = linkKey(link);
		if (read.has(key)) throw repeatedLink(context, link, options.itemIndex);
		read.add(key);
		return await readLink(link);
	};

	let page = first;
	const plan = offsetPagePlan(first, limit);
	if (plan !== undefined) {
		const pages = await readPlannedPages(plan, readPage);
		for (const planned of pages) entries.push(...planned.entries);
		// A list that grew while it was read has more pages than its size said: follow them as below.
		page = pages[pages.length - 1];
	}
	await readFollowingPages(page, entries, limit, readPage);
	return entries;
}

/**
 * The pages after `page`, one at a time, to the last page, an empty page or the limit. Each page's link is absolute and
 * already carries the query (ws.op, filters, cursor). A call per page, not a loop, so no change can spin it without a read.
 */
async function readFollowingPages<T>(page: CollectionPage<T>, entries: T[], limit: number, readPage: (link: string) => Promise<CollectionPage<T>>): Promise<void> {
	if (!page.next_collection_link || page.entries.length === 0 || entries.length >= limit) return;
	const next = await readPage(sizedNextLink(page.next_collection_link, limit - entries.length));
	entries.push(...next.entries);
	await readFollowingPages(next, entries, limit, readPage);
}

/** A link as a key: the same page however its query is ordered. */
function linkKey(link: string): string {
	try {
		const url = new URL(link);
		url.searchParams.sort();
		return url.toString();
	} catch {
		return link;
	}
}

function repeatedLink(context: AweberContext, link: string, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(context.getNode(), "AWeber's answer was unexpected: its next page is a page already read", {
		description:
			`The next_collection_link of an AWeber page points back to a page this read already had (${link.slice(0, 120)}), so the collection would never end. ` +
			'The read was stopped and nothing was output for it. This is usually a passing fault at AWeber or in a proxy between n8n and AWeber: run the step again later.',
		itemIndex,
	});
}

/** Every entry of the collection at `path` (all pages). */
export async function readAllEntries<T = IDataObject>(context: AweberContext, path: string): Promise<T[]> {
	return await readRemainingEntries(context, await readCollectionPage<T>(context, path));
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

/** The further pages of an offset collection: how many, each one's link (made when read) and the entries it is asked for. */
interface PagePlan {
	count: number;
	link: (index: number) => string;
	size: (index: number) => number;
}

/** The further pages of an offset collection that states its `total_size`; none for cursor pages or `find` results. */
function offsetPagePlan(first: CollectionPage<unknown>, limit: number): PagePlan | undefined {
	if (!first.next_collection_link || typeof first.total_size !== 'number' || first.entries.length === 0) return undefined;
	let next: URL;
	try {
		next = new URL(first.next_collection_link);
	} catch {
		return undefined;
	}
	const start = Number(next.searchParams.get('ws.start'));
	const size = Number(next.searchParams.get('ws.size'));
	if (!(start > 0) || !(size > 0)) return undefined;
	const end = Math.min(first.total_size, start - first.entries.length + limit);
	const count = Math.min(Math.max(0, Math.ceil((end - start) / size)), MAX_PLANNED_PAGES);
	if (count === 0) return undefined;
	const pageSize = (index: number) => Math.min(size, end - (start + index * size));
	return {
		count,
		size: pageSize,
		link: (index) => {
			next.searchParams.set('ws.start', String(start + index * size));
			next.searchParams.set('ws.size', String(pageSize(index)));
			return next.toString();
		},
	};
}

/** The planned pages, read a few at a time, in order, up to the first short or empty one. */
async function readPlannedPages<T>(plan: PagePlan, readPage: (link: string) => Promise<CollectionPage<T>>): Promise<Array<CollectionPage<T>>> {
	const pages: Array<CollectionPage<T>> = [];
	let nextIndex = 0;
	let endIndex = plan.count;
	let failed = false;
	const reader = async () => {
		// The next index is taken in the loop's head, so no change to its body can make it endless.
		for (let index = nextIndex++; index < endIndex && !failed; index = nextIndex++) {
			let read = false;
			try {
				const page = await readPage(plan.link(index));
				pages[index] = page;
				read = true;
				if (page.entries.length < plan.size(index)) endIndex = Math.min(endIndex, index + 1);
			} finally {
				// The node fails with this page's error: the other readers stop asking for pages.
				if (!read) failed = true;
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(PAGES_READ_AHEAD, plan.count) }, reader));
	return pages.slice(0, endIndex);
}
