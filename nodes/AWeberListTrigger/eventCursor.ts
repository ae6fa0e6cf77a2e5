import type { IDataObject } from 'n8n-workflow';

/** One event of a stream: the AWeber entry, its id and its time (epoch ms). */
export interface StreamEvent {
	id: string;
	time: number;
	json: IDataObject;
}

/**
 * Where a stream was read up to: the newest emitted time and the ids emitted at exactly that time
 * (AWeber's times are whole seconds, so several events often share one). `time: null` means the
 * stream was empty when watching began, so every event is new.
 */
export interface EventCursor {
	time: number | null;
	ids: string[];
}

export interface StreamPage {
	/** Newest first, as AWeber sorts these collections. */
	events: StreamEvent[];
	/** Whether AWeber has more entries after this page (a next_collection_link). */
	hasMore: boolean;
	/** Entries AWeber returned, including any without a usable time (they move offsets but are no events). */
	entryCount: number;
	/** AWeber's clock when it answered (epoch ms, its `Date` header), when known. */
	answeredAt?: number;
}

/** Reads `size` entries of a newest-first collection from `offset` (AWeber's ws.start / ws.size). */
export type FetchPage = (offset: number, size: number) => Promise<StreamPage>;

export interface CollectOptions {
	/** Entries asked for per page: AWeber's largest, 100 (more than PAGE_OVERLAP, or a read would never move on). */
	pageSize: number;
	/** Most events one poll emits; a larger backlog drains over several polls, oldest first. */
	maxEvents: number;
	/** True once the poll has used its share of n8n's poll budget; the poll then gives up without moving the cursor. */
	outOfTime?: () => boolean;
	/** Told when a stored cursor lies ahead of AWeber's clock, before it is brought back to AWeber's now. */
	onFutureCursor: (storedTime: number, now: number) => void;
	/** Told when the collection changed under a read more than the page overlap covers: the poll gives up for now. */
	onBrokenRead: () => void;
}

export interface CollectResult {
	/** Oldest first. */
	events: StreamEvent[];
	cursor: EventCursor;
}

/**
 * How far ahead of AWeber's clock (its `Date` header) a timestamp may be and still count: AWeber dates its
 * entries with that same clock, so anything beyond is no real time (docs/aweber-behaviour.md#answers).
 */
export const MAX_CLOCK_SKEW_MS = 10 * 60 * 1000;

/** Bisection steps, a bound far above any real backlog (2^40 pages). */
const MAX_SEARCH_STEPS = 40;
/** Extra pages a window read may take when new entries pushed the boundary down meanwhile. */
const MAX_EXTRA_WINDOW_PAGES = 3;

/**
 * Whether an event read down to the cursor (so none older than its time: `readDown` stops there) is new: all are but
 * those already emitted at the cursor's second. A subscriber emitted there who comes again later (unsubscribed again)
 * is new at the later time.
 */
function isNewEvent(event: StreamEvent, cursor: EventCursor): boolean {
	return event.time !== cursor.time || !cursor.ids.includes(event.id);
}

/** Strictly older than the cursor's time (`null`: nothing is): every event from here on was emitted by an earlier poll. */
function isBeyondCursor(event: StreamEvent, cursorTime: number | null): boolean {
	return event.time < (cursorTime ?? -Infinity);
}

/**
 * The cursor first set when watching begins: everything already there counts as seen, however many entries share the
 * newest second (an import puts hundreds in one): the pages are read down, overlapping as a poll's read is
 * (`readDown`), until an entry older than that second or the end. Undefined when that read could not be confirmed
 * (out of time, the collection changed too much meanwhile): nothing is stored and the next poll starts again.
 * `complete` is false when the newest second spans more than `maxPages` pages: the cursor then holds what was read.
 */
export async function startingCursor(fetchPage: FetchPage, options: CollectOptions, maxPages: number): Promise<{ cursor: EventCursor; complete: boolean } | undefined> {
	const first = await fetchPage(0, options.pageSize);
	const newest = first.events[0];
	if (newest === undefined) return { cursor: { time: null, ids: [] }, complete: true };
	// readDown asks for pages of options.pageSize: the one at offset 0 is the page just read.
	const reusingFirst: FetchPage = async (offset, size) => (offset === 0 ? first : await fetchPage(offset, size));
	const reading = await readDown(reusingFirst, 0, newest.time, options, maxPages);
	if (reading === undefined) return undefined;
	// The cursor is the newest second when watching began, with every id read at it (pages overlap: each id once).
	// Entries added during the read at a later second are not yet watched: the next poll emits every one of them.
	const ids = [...new Set(reading.events.filter((event) => event.time === newest.time).map((event) => event.id))];
	return { cursor: { time: newest.time, ids }, complete: reading.reachedCursor };
}

/** A stored cursor the poll can use: a time a date can have (or null), and text ids. */
export function isUsableCursor(value: unknown): value is EventCursor {
	const cursor = value as EventCursor | undefined;
	return (
		typeof cursor === 'object' &&
		cursor !== null &&
		(cursor.time === null || (typeof cursor.time === 'number' && Math.abs(cursor.time) <= MAX_DATE_MS)) &&
		Array.isArray(cursor.ids) &&
		cursor.ids.every((id) => typeof id === 'string')
	);
}

/** The largest time a JavaScript date can hold (ECMAScript: 8.64e15 ms from 1970). NaN and Infinity are not within it. */
const MAX_DATE_MS = 8.64e15;

/**
 * A cursor ahead of AWeber's clock (stored by an earlier version from a bogus timestamp, or edited) would hide every
 * event until that time: it is brought back to AWeber's now. The same cursor when it is fine.
 */
function notAheadOfAweber(cursor: EventCursor, now: number | undefined, options: CollectOptions): EventCursor {
	// A cursor without a time (the collection was empty when watching began) is never ahead.
	const time = cursor.time ?? -Infinity;
	if (now === undefined || time <= now + MAX_CLOCK_SKEW_MS) return cursor;
	options.onFutureCursor(time, now);
	return { time: now, ids: [] };
}

/** Moves the cursor to the newest emitted event, keeping the ids that share its time. */
export function advanceCursor(cursor: EventCursor, emitted: StreamEvent[]): EventCursor {
	const newest = emitted[emitted.length - 1];
	if (newest === undefined) return cursor;
	const ids = emitted.filter((event) => event.time === newest.time).map((event) => event.id);
	if (cursor.time === newest.time) ids.unshift(...cursor.ids);
	return { time: newest.time, ids: [...new Set(ids)] };
}

interface Reading {
	events: StreamEvent[];
	/** Whether an event older than the cursor (or the end of the collection) was reached. */
	reachedCursor: boolean;
	/** Offset after the last entry read. */
	end: number;
}

/**
 * Entries each page read repeats of the page before. The collection is read by offset, and an entry removed above the
 * read (an unsubscriber deleted, a test broadcast removed) between two page reads moves every later entry up by one:
 * without the overlap the entry that moved across the page boundary would never be read. Up to one fewer than this
 * many removals between two page reads are survived (the previous page's last entry, the last of the repeated ones, is
 * found again); more, and the read gives up without moving the cursor, so the next poll reads again. 10 of AWeber's
 * 100 per page costs a tenth more requests for a long backlog, and nothing when one page holds everything new.
 */
export const PAGE_OVERLAP = 10;

/**
 * Whether a page read after `anchor` (the last event of the page before) goes on from it: the anchor is on it again
 * (entries removed above moved it up by at most the overlap), or the page begins with entries newer than the anchor
 * (entries added above pushed it further down, so nothing between was skipped).
 */
function continuesFrom(events: StreamEvent[], anchor: StreamEvent): boolean {
	// By its id alone: the anchor on the page at a later time (AWeber lists it again) makes the page begin newer anyway.
	return events.some((event) => event.id === anchor.id) || (events[0] !== undefined && events[0].time > anchor.time);
}

/**
 * Reads pages from `offset` down (towards older entries) until it passes the cursor, or `maxPages` pages. Each page
 * after the first overlaps the one before (`PAGE_OVERLAP`); undefined when out of time or when a page does not go on
 * from the one before (more entries removed meanwhile than the overlap covers).
 */
async function readDown(fetchPage: FetchPage, offset: number, cursorTime: number | null, options: CollectOptions, maxPages: number): Promise<Reading | undefined> {
	const events: StreamEvent[] = [];
	let position = offset;
	let anchor: StreamEvent | undefined;
	for (let page = 0; page < maxPages; page++) {
		if (options.outOfTime?.()) return undefined;
		// The first page starts at `offset` (position is offset then), each later one PAGE_OVERLAP entries back.
		const start = Math.max(offset, position - PAGE_OVERLAP);
		const { events: entries, hasMore, entryCount } = await fetchPage(start, options.pageSize);
		if (anchor !== undefined && !continuesFrom(entries, anchor)) {
			options.onBrokenRead();
			return undefined;
		}
		for (const event of entries) {
			if (isBeyondCursor(event, cursorTime)) return { events, reachedCursor: true, end: start };
			events.push(event);
		}
		position = start + entryCount;
		anchor = entries.at(-1) ?? anchor;
		if (!hasMore || entryCount === 0) return { events, reachedCursor: true, end: position };
	}
	return { events, reachedCursor: false, end: position };
}

/**
 * Where the cursor lies in the newest-first collection: the offset of the first entry older than it (or the
 * collection's length). Galloping then bisection with whole pages, so a deep backlog costs a few requests.
 */
async function locateCursor(fetchPage: FetchPage, from: number, cursorTime: number | null, options: CollectOptions): Promise<number | undefined> {
	let low = from; // every entry before `low` is at or after the cursor
	let high: number | undefined; // the cursor lies at or before `high`
	let step = Math.max(options.pageSize, from);
	for (let attempt = 0; attempt < MAX_SEARCH_STEPS; attempt++) {
		if (options.outOfTime?.()) return undefined;
		const probe: number = high === undefined ? low + step : high - low <= options.pageSize ? low : low + Math.floor((high - low) / 2);
		const { events, hasMore, entryCount } = await fetchPage(probe, options.pageSize);
		const firstBeyond = events.findIndex((event) => isBeyondCursor(event, cursorTime));
		// An approximate offset is enough: the window read that follows goes on until it passes the cursor.
		if (firstBeyond > 0) return probe + firstBeyond;
		if (firstBeyond === 0 || entryCount === 0) {
			if (probe <= low) return probe;
			high = probe;
		} else if (!hasMore) {
			return probe + entryCount;
		} else {
			// The gallop's step doubles; once `high` is known it is not used. Entries arriving during the search can put
			// `low` past `high`: the next probe is then at `low` (high - low is under a page).
			low = probe + entryCount;
			step *= 2;
		}
	}
	return undefined;
}

/**
 * The events newer than the cursor, oldest first and at most `maxEvents`, and the cursor moved past exactly
 * those. The common case (nothing or a little happened) reads one page. A backlog larger than `maxEvents`
 * is located and its oldest part emitted, so it drains over several polls without loss. Reads are contiguous
 * towards older entries, overlapping page to page, and always end past the cursor, so entries added meanwhile (which
 * push older ones down) or removed (which pull them up, up to PAGE_OVERLAP between two page reads) are never skipped;
 * if that cannot be confirmed, nothing is emitted and the cursor stays.
 */
export async function collectNewEvents(fetchPages: FetchPage, stored: EventCursor, options: CollectOptions): Promise<CollectResult> {
	// The newest page is read first anyway: its answer says AWeber's now, against which the cursor is checked. (Out of
	// time already, the read below gives up after it: n8n's budgets are minutes.)
	let newest: StreamPage | undefined = await fetchPages(0, options.pageSize);
	// The first read is the window's first page, at offset 0: it is served that page. Any later read at offset 0 (when
	// AWeber's pages are shorter than asked, the window can start at 0 again) is read anew.
	const fetchPage: FetchPage = async (offset, size) => {
		const page = newest ?? (await fetchPages(offset, size));
		newest = undefined;
		return page;
	};
	const cursor = notAheadOfAweber(stored, newest.answeredAt, options);
	const unchanged = { events: [], cursor };
	// Entries already emitted at the cursor's second sit just above the cursor and are read again: budget for them,
	// or a second with more events than a poll emits would never be passed.
	const window = options.maxEvents + cursor.ids.length;
	const windowPages = Math.ceil(window / (options.pageSize - PAGE_OVERLAP)) + 1;
	let reading = await readDown(fetchPage, 0, cursor.time, options, windowPages);
	if (reading === undefined) return unchanged;
	if (!reading.reachedCursor) {
		const boundary = await locateCursor(fetchPage, reading.end, cursor.time, options);
		if (boundary === undefined) return unchanged;
		reading = await readDown(fetchPage, Math.max(0, boundary - window), cursor.time, options, windowPages + MAX_EXTRA_WINDOW_PAGES);
		if (reading === undefined || !reading.reachedCursor) return unchanged;
	}
	// Pages read while entries were being added can overlap: keep each event once.
	const unique = new Map<string, StreamEvent>();
	for (const event of reading.events) {
		// An event read again keeps its first place (a Map keeps a key where it was first set).
		if (isNewEvent(event, cursor)) unique.set(`${event.time}:${event.id}`, event);
	}
	// Oldest first; the sort is stable, so events of one second keep AWeber's order (reversed to oldest first).
	const fresh = [...unique.values()].reverse().sort((a, b) => a.time - b.time);
	const events = fresh.slice(0, options.maxEvents);
	return { events, cursor: advanceCursor(cursor, events) };
}
