// AWeber's 2.0-beta API (a preview of v2): the broadcast link report. UUID identifiers, a bare JSON array per
// page, cursor pages through an RFC 8288 `Link` header, errors as application/problem+json.
// docs/aweber-behaviour.md#beta-link-report, docs/sandbox.md.
import { pageCapOf, type Query } from '../collections';
import type { SandboxState } from '../state';
import { activityOf } from './campaigns';

export const BETA_PREFIX = '/2.0-beta';
export const LINK_REPORT_PATH = '/analytics/reports/broadcasts-links';
const MAX_PAGE_SIZE = 100;
const UUID = /^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/;

/** An application/problem+json answer (RFC 7807), as the beta API gives its errors. */
export class ProblemError extends Error {
	constructor(
		readonly status: number,
		readonly title: string,
		readonly detail: string,
	) {
		super(detail);
	}

	toBody(instance: string): Record<string, unknown> {
		return { type: 'about:blank', title: this.title, status: this.status, detail: this.detail, instance };
	}
}

const requestError = (detail: string) => new ProblemError(400, 'Request Error', detail);
const notFound = (detail: string) => new ProblemError(404, 'Not Found', detail);

export interface LinkReportEntry {
	url: string;
	unique: number;
	total: number;
	type: 'click' | 'pageview';
}

function requiredUuid(query: Query, name: string): string {
	const value = query[name];
	if (value === undefined || value === '') throw requestError(`'${name}' is a required property`);
	if (!UUID.test(value)) throw requestError(`'${name}' is not a valid UUID`);
	return value;
}

function count(query: Query, name: string, fallback: number | undefined, max?: number): number | undefined {
	const raw = query[name];
	if (raw === undefined || raw === '') return fallback;
	if (!/^\d+$/.test(raw)) throw requestError(`'${name}' is not of type 'integer'`);
	const value = Number(raw);
	if (max !== undefined && (value < 1 || value > max)) throw requestError(`'${name}' must be between 1 and ${max}`);
	return value;
}

function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[], fallback?: T): T {
	const value = query[name];
	if (value === undefined || value === '') {
		if (fallback !== undefined) return fallback;
		throw requestError(`'${name}' is a required property`);
	}
	if (!allowed.includes(value as T)) throw requestError(`'${name}' must be one of: ${allowed.join(', ')}`);
	return value as T;
}

/** The opaque `after` cursor: the position of the next entry in the sorted report. */
function encodeAfter(position: number): string {
	return Buffer.from(`pos:${position}`, 'utf8').toString('base64url');
}

function decodeAfter(cursor: string): number {
	const match = /^pos:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
	if (match === null || encodeAfter(Number(match[1])) !== cursor) throw requestError("'after' is not a valid cursor");
	return Number(match[1]);
}

function grouped(events: Array<{ url: string; subscriberId: number }>, type: LinkReportEntry['type']): LinkReportEntry[] {
	const byUrl = new Map<string, { subscribers: Set<number>; total: number }>();
	for (const event of events) {
		const entry = byUrl.get(event.url) ?? { subscribers: new Set<number>(), total: 0 };
		entry.subscribers.add(event.subscriberId);
		entry.total++;
		byUrl.set(event.url, entry);
	}
	return [...byUrl].map(([url, entry]) => ({ url, unique: entry.subscribers.size, total: entry.total, type }));
}

/** Every link of a broadcast for one filter: clicks from its tracked clicks, page views from its web hits and archive page views. */
export function linkReportEntries(state: SandboxState, broadcastId: number, filter: 'clicks' | 'pageviews'): LinkReportEntry[] {
	const activity = activityOf(state, 'b', broadcastId);
	if (filter === 'clicks') return grouped(activity.clicks, 'click');
	const webhits = grouped(activity.trackedEvents.filter((event) => event.type === 'webhit'), 'pageview');
	return [...webhits, ...(state.archivePageViews.get(broadcastId) ?? []).map((entry) => ({ ...entry, type: 'pageview' as const }))];
}

export interface LinkReportPage {
	entries: LinkReportEntry[];
	/** The absolute URLs of the next and previous pages, for the `Link` header. */
	next?: string;
	prev?: string;
}

/** GET /2.0-beta/analytics/reports/broadcasts-links: one page of the report, or a ProblemError. */
export function broadcastLinksReport(state: SandboxState, query: Query, url: string): LinkReportPage {
	const accountUuid = requiredUuid(query, 'account_id');
	const broadcastUuid = requiredUuid(query, 'broadcast_id');
	const filter = oneOf(query, 'filter', ['clicks', 'pageviews'] as const);
	const sortBy = oneOf(query, 'sort_by', ['unique', 'total'] as const, 'unique');
	const ascending = oneOf(query, 'sort_asc', ['true', 'false'] as const, 'true') === 'true';
	const minCount = count(query, 'min_count', 1) as number;
	const maxCount = count(query, 'max_count', undefined);
	const pageSize = Math.min(pageCapOf(query), count(query, 'page_size', MAX_PAGE_SIZE, MAX_PAGE_SIZE) as number);
	if (query.before !== undefined && query.after !== undefined) throw requestError("'before' and 'after' cannot be used together");

	if (accountUuid !== state.account.uuid) throw notFound('The requested account could not be found');
	const broadcast = [...state.broadcasts.values()].find((candidate) => candidate.uuid === broadcastUuid);
	if (broadcast === undefined) throw notFound('The requested broadcast could not be found');

	const direction = ascending ? 1 : -1;
	const report = linkReportEntries(state, broadcast.id, filter)
		.filter((entry) => entry.unique >= minCount && (maxCount === undefined || entry.unique <= maxCount))
		.sort((a, b) => direction * (a[sortBy] - b[sortBy]) || a.url.localeCompare(b.url));

	let from = 0;
	let to = Math.min(report.length, pageSize);
	if (query.after !== undefined) {
		from = Math.min(decodeAfter(query.after), report.length);
		to = Math.min(report.length, from + pageSize);
	} else if (query.before !== undefined) {
		const before = count(query, 'before', 0) as number;
		to = Math.min(before, report.length);
		from = Math.max(0, to - pageSize);
	}
	const kept: Query = {};
	for (const [key, value] of Object.entries(query)) {
		if (!['after', 'before', 'page_size', 'access_token'].includes(key)) kept[key] = value;
	}
	const link = (cursor: Query) => `${url}?${new URLSearchParams({ ...kept, ...cursor, page_size: String(pageSize) }).toString()}`;
	return {
		entries: report.slice(from, to),
		next: to < report.length ? link({ after: encodeAfter(to) }) : undefined,
		prev: from > 0 ? link({ before: String(from) }) : undefined,
	};
}

/** The RFC 8288 `Link` header of a page, or undefined on a single page. */
export function linkHeader(page: LinkReportPage): string | undefined {
	const links = [page.next ? `<${page.next}>; rel="next"` : undefined, page.prev ? `<${page.prev}>; rel="prev"` : undefined].filter(Boolean);
	return links.length > 0 ? links.join(', ') : undefined;
}
