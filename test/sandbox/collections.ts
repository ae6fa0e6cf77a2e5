// AWeber's collection envelopes: offset pages (ws.start / ws.size) and the cursor pages of broadcast opens and
// clicks (before / after / page_size). docs/aweber-behaviour.md#collections.
import { badRequest } from './errors';

export const MAX_PAGE_SIZE = 100;

/** Plain collections report `total_size`; find / named-operation collections and broadcasts only link to it. */
export type TotalKind = 'total_size' | 'total_size_link';

export type Query = Record<string, string>;

/**
 * A test device, not AWeber behaviour: the most entries the sandbox puts on one page, set through
 * `sandbox.pages.cap(n)`. With a cap, a collection of a few seeded entries spans several pages (offset and
 * cursor alike, next links carrying the capped size), so a contract test sees what a collection larger than
 * AWeber's 100-entry page does without seeding hundreds of records per collection. Carried on the query under
 * a symbol, so it never shows in page links.
 */
export const PAGE_CAP = Symbol('sandbox page cap');

export function pageCapOf(query: Query): number {
	const cap = (query as Query & { [PAGE_CAP]?: number })[PAGE_CAP];
	return cap !== undefined && cap > 0 ? cap : MAX_PAGE_SIZE;
}

export interface OffsetPageOptions<T> {
	/** Collection URL without a query string. */
	url: string;
	/** The request's query; everything but ws.start / ws.size / access_token is kept in the page links. */
	query: Query;
	items: readonly T[];
	render: (item: T) => object;
	/** Entry type; the envelope's resource_type_link is `#<type>-page-resource`. */
	entryType: string;
	totalKind: TotalKind;
	resourceTypeBase: string;
	selfLink?: boolean;
}

function parseIntegerParam(query: Query, name: string, fallback: number, min: number, max?: number): number {
	const raw = query[name];
	if (raw === undefined || raw === '') return fallback;
	if (!/^-?\d+$/.test(raw.trim())) throw badRequest(`Invalid value for "${name}" parameter.`);
	const value = Number(raw);
	if (value < min) throw badRequest(`Minimum for "${name}" parameter is ${min}.`);
	if (max !== undefined && value > max) throw badRequest(`Maximum for "${name}" parameter is ${max}.`);
	return value;
}

export function pageParams(query: Query): { start: number; size: number } {
	return {
		start: parseIntegerParam(query, 'ws.start', 0, 0),
		size: Math.min(pageCapOf(query), parseIntegerParam(query, 'ws.size', MAX_PAGE_SIZE, 1, MAX_PAGE_SIZE)),
	};
}

export function withQuery(url: string, params: Query): string {
	const search = new URLSearchParams(params).toString();
	return search === '' ? url : `${url}?${search}`;
}

function keptParams(query: Query, drop: string[]): Query {
	const kept: Query = {};
	for (const [key, value] of Object.entries(query)) {
		if (!drop.includes(key) && key !== 'access_token') kept[key] = value;
	}
	return kept;
}

/**
 * One page of a collection, or with `ws.show=total_size` only its size. The size comes back as a bare JSON
 * integer, lazr.restful's answer (AWeber's API is built on it); docs/aweber-behaviour.md#collections marks the shape as assumed.
 */
export function offsetPage<T>(options: OffsetPageOptions<T>): object | number {
	const { query, items } = options;
	if (query['ws.show'] === 'total_size') return items.length;
	const { start, size } = pageParams(query);
	const base = keptParams(query, ['ws.start', 'ws.size', 'ws.show']);
	const pageLink = (pageStart: number) =>
		withQuery(options.url, { ...base, 'ws.start': String(pageStart), 'ws.size': String(size) });

	const envelope: Record<string, unknown> = {
		entries: items.slice(start, start + size).map(options.render),
		start,
	};
	if (options.totalKind === 'total_size') envelope.total_size = items.length;
	else envelope.total_size_link = withQuery(options.url, { ...base, 'ws.show': 'total_size' });
	if (start + size < items.length) envelope.next_collection_link = pageLink(start + size);
	if (start > 0) envelope.prev_collection_link = pageLink(Math.max(0, start - size));
	envelope.resource_type_link = `${options.resourceTypeBase}#${options.entryType}-page-resource`;
	if (options.selfLink === true) envelope.self_link = withQuery(options.url, base);
	return envelope;
}

export interface CursorPageOptions<T> {
	url: string;
	query: Query;
	/** Newest first, as AWeber orders broadcast opens and clicks. */
	items: readonly T[];
	/** A stable, unique key per item; the cursor is its opaque base64 form. */
	keyOf: (item: T) => string;
	render: (item: T) => object;
	entryType: string;
	resourceTypeBase: string;
}

export function encodeCursor(key: string): string {
	return Buffer.from(key, 'utf8').toString('base64');
}

function decodeCursor(cursor: string, name: string): string {
	const key = Buffer.from(cursor, 'base64').toString('utf8');
	if (key === '' || encodeCursor(key) !== cursor) throw badRequest(`Invalid value for "${name}" parameter.`);
	return key;
}

/** Cursor pagination of broadcast opens / clicks: `after` walks to older entries, `before` to newer ones. */
export function cursorPage<T>(options: CursorPageOptions<T>): object {
	const { query, items, keyOf } = options;
	const size = Math.min(pageCapOf(query), parseIntegerParam(query, 'page_size', MAX_PAGE_SIZE, 1, MAX_PAGE_SIZE));
	const before = query.before;
	const after = query.after;
	if (before !== undefined && after !== undefined) {
		throw badRequest('The "before" and "after" parameters cannot be used together.');
	}
	const indexOfCursor = (cursor: string, name: string) => {
		const key = decodeCursor(cursor, name);
		const index = items.findIndex((item) => keyOf(item) === key);
		if (index < 0) throw badRequest(`Invalid value for "${name}" parameter.`);
		return index;
	};

	let from = 0;
	if (after !== undefined) from = indexOfCursor(after, 'after') + 1;
	if (before !== undefined) from = Math.max(0, indexOfCursor(before, 'before') - size);
	const to = before !== undefined ? indexOfCursor(before, 'before') : Math.min(items.length, from + size);
	const page = items.slice(from, to);

	const base = keptParams(query, ['before', 'after', 'page_size']);
	const envelope: Record<string, unknown> = { entries: page.map(options.render) };
	if (page.length > 0 && to < items.length) {
		envelope.next_collection_link = withQuery(options.url, {
			...base,
			after: encodeCursor(keyOf(page[page.length - 1])),
			page_size: String(size),
		});
	}
	if (page.length > 0 && from > 0) {
		envelope.prev_collection_link = withQuery(options.url, {
			...base,
			before: encodeCursor(keyOf(page[0])),
			page_size: String(size),
		});
	}
	envelope.total_size = items.length;
	envelope.resource_type_link = `${options.resourceTypeBase}#${options.entryType}-page-resource`;
	return envelope;
}
