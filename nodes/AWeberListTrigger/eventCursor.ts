import type { IDataObject } from 'n8n-workflow';

import { isBeyondCursor, locateCursor, PAGE_OVERLAP, placeInPage, readDown, type Reading } from './pageReads';
import { hasPartialIds, idsAt, isSettled, MAX_SETTLED_IDS, secondUnchanged } from './settledSecond';

export { PAGE_OVERLAP } from './pageReads';

/** One event of a stream: the AWeber entry, its id and its time (epoch ms). */
export interface StreamEvent {
	id: string;
	time: number;
	json: IDataObject;
	/** The entry's place in its page, when entries before it on the page were no events (no usable time or id). */
	at?: number;
}

/**
 * Where a stream was read up to: the newest emitted time and the ids emitted at exactly that time
 * (AWeber's times are whole seconds, so several events often share one). `time: null` means the
 * stream was empty when watching began, so every event is new.
 */
export interface EventCursor {
	time: number | null;
	ids: string[];
	/**
	 * How many entries AWeber listed at `time` when a poll last read them all, once AWeber's clock was a minute past it
	 * (settledSecond.ts): all were seen. Then a poll checks that second with one request instead of reading it, and
	 * `ids` keeps at most MAX_SETTLED_IDS of them. Absent in positions stored by earlier versions, and while the second
	 * is recent: the poll then reads the second in full, by its ids.
	 */
	count?: number;
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
	/** Told when a settled second holds more entries than were seen (against docs/aweber-behaviour.md#answers). */
	onLateEntries?: (time: number, count: number) => void;
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

/** Extra pages a window read may take when new entries pushed the boundary down meanwhile. */
const MAX_EXTRA_WINDOW_PAGES = 3;
/**
 * Pages a poll reads straight down, as a share of its window, before it looks for its cursor instead: a backlog up to
 * one and a half windows (1,500 behind at the default 1,000 per poll) is read once, a deeper one is searched.
 */
const DIRECT_READ_SHARE = 1.5;

/**
 * Whether an event read down to the cursor (so none older than its time: `readDown` stops there) is new: all are but
 * those already emitted at the cursor's second. A subscriber emitted there who comes again later (unsubscribed again)
 * is new at the later time.
 */
function isNewEvent(event: StreamEvent, cursor: EventCursor, seenIds: Set<string>): boolean {
	// A settled second whose ids were trimmed was seen in full: none of it is new.
	return event.time !== cursor.time || (!hasPartialIds(cursor) && !seenIds.has(event.id));
}

/**
 * The cursor first set when watching begins: everything already there counts as seen, however many entries share the
 * newest second (an import puts hundreds in one). A settled second (AWeber's clock a minute past it) is counted: its
 * end is searched for (`locateCursor`), a few requests whatever its size, and the cursor keeps its count and the ids of
 * the first page. A recent one is read down, overlapping as a poll's read is (`readDown`), until an entry older than
 * it or the end, keeping every id (entries may still come in at that second). Undefined when that read could not be
 * confirmed (out of time, the collection changed too much meanwhile): nothing is stored and the next poll starts
 * again. `complete` is false when a recent newest second spans more than `maxPages` pages: the cursor then holds what
 * was read.
 */
export async function startingCursor(fetchPage: FetchPage, options: CollectOptions, maxPages: number): Promise<{ cursor: EventCursor; complete: boolean } | undefined> {
	const first = await fetchPage(0, options.pageSize);
	const newest = first.events[0];
	if (newest === undefined) return { cursor: { time: null, ids: [] }, complete: true };
	// readDown asks for pages of options.pageSize: the one at offset 0 is the page just read.
	const reusingFirst: FetchPage = async (offset, size) => (offset === 0 ? first : await fetchPage(offset, size));
	if (isSettled(newest.time, first.answeredAt)) {
		if (options.outOfTime?.()) return undefined;
		const onFirst = first.events.findIndex((event) => isBeyondCursor(event, newest.time));
		const end = onFirst >= 0 || !first.hasMore ? undefined : await locateCursor(reusingFirst, first.entryCount, newest.time, options);
		const count = onFirst >= 0 ? placeInPage(first.events[onFirst], onFirst) : (end ?? first.entryCount);
		if (onFirst >= 0 || !first.hasMore || end !== undefined) {
			// Entries added at a later second during the search push the end down: the count is then too large, the next
			// poll's check of the second fails and it reads the second in full (newer entries fire, that second does not).
			return { cursor: { time: newest.time, ids: idsAt(first.events, newest.time).slice(0, MAX_SETTLED_IDS), count }, complete: true };
		}
		return undefined;
	}
	const reading = await readDown(reusingFirst, 0, newest.time, options, maxPages);
	if (reading === undefined) return undefined;
	// The cursor is the newest second when watching began, with every id read at it (pages overlap: each id once).
	// Entries added during the read at a later second are not yet watched: the next poll emits every one of them.
	return { cursor: { time: newest.time, ids: idsAt(reading.events, newest.time) }, complete: reading.reachedCursor };
}

/** A stored cursor the poll can use: a time a date can have (or null), and text ids. */
export function isUsableCursor(value: unknown): value is EventCursor {
	const cursor = value as EventCursor | undefined;
	return (
		typeof cursor === 'object' &&
		cursor !== null &&
		(cursor.time === null || (typeof cursor.time === 'number' && Math.abs(cursor.time) <= MAX_DATE_MS)) &&
		Array.isArray(cursor.ids) &&
		cursor.ids.every((id) => typeof id === 'string') &&
		(cursor.count === undefined || (cursor.time !== null && Number.isSafeInteger(cursor.count) && cursor.count >= 1))
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

interface PastReading {
	reading: Reading;
	/** Whether the read began at the newest entry: every entry newer than the cursor was read. */
	fromTop: boolean;
}

/**
 * Reads every event newer than the cursor (its second included: those already emitted are read again), from the
 * newest entry down when the backlog is within DIRECT_READ_SHARE windows; else the window just above the cursor,
 * found by a search. Undefined when that cannot be confirmed (out of time, the collection changed too much).
 */
async function readPast(fetchPage: FetchPage, cursor: EventCursor, options: CollectOptions): Promise<PastReading | undefined> {
	// Entries already emitted at the cursor's second sit just above the cursor and are read again: budget for them,
	// or a second with more events than a poll emits would never be passed.
	const window = options.maxEvents + Math.max(cursor.ids.length, cursor.count ?? 0);
	const windowPages = Math.ceil(window / (options.pageSize - PAGE_OVERLAP)) + 1;
	const direct = await readDown(fetchPage, 0, cursor.time, options, Math.ceil(windowPages * DIRECT_READ_SHARE));
	if (direct === undefined || direct.reachedCursor) return direct && { reading: direct, fromTop: true };
	const boundary = await locateCursor(fetchPage, direct.end, cursor.time, options);
	if (boundary === undefined) return undefined;
	const reading = await readDown(fetchPage, Math.max(0, boundary - window), cursor.time, options, windowPages + MAX_EXTRA_WINDOW_PAGES);
	if (reading === undefined || !reading.reachedCursor) return undefined;
	return { reading, fromTop: boundary <= window };
}

/**
 * The oldest `maxEvents` new events of a reading, and the cursor moved past exactly those. The new cursor counts its
 * second when this poll read all of that second and it is settled (`checked`: the stored second was checked, not
 * read, so only newer seconds can be counted).
 */
function emitOldest(cursor: EventCursor, past: PastReading, options: CollectOptions, answeredAt: number | undefined, checked: boolean): CollectResult {
	// Pages read while entries were being added can overlap: keep each event once.
	const unique = new Map<string, StreamEvent>();
	// A set: a second of an import holds thousands of ids, read again by every poll until it is settled.
	const seenIds = new Set(cursor.ids);
	for (const event of past.reading.events) {
		// An event read again keeps its first place (a Map keeps a key where it was first set).
		if (isNewEvent(event, cursor, seenIds)) unique.set(`${event.time}:${event.id}`, event);
	}
	// Oldest first; the sort is stable, so events of one second keep AWeber's order (reversed to oldest first).
	const fresh = [...unique.values()].reverse().sort((a, b) => a.time - b.time);
	const events = fresh.slice(0, options.maxEvents);
	const next = advanceCursor(cursor, events);
	if (!checked && past.fromTop && hasPartialIds(cursor) && cursor.time !== null) {
		const grown = idsAt(past.reading.events, cursor.time).length - (cursor.count ?? 0);
		if (grown > 0) options.onLateEntries?.(cursor.time, grown);
	}
	const time = next.time;
	if (time === null || (checked && events.length === 0)) return { events, cursor: next };
	const wholeSecond = past.fromTop && !fresh.slice(options.maxEvents).some((event) => event.time === time);
	if (!wholeSecond || !isSettled(time, answeredAt)) return { events, cursor: next };
	const count = Math.max(idsAt(past.reading.events, time).length, next === cursor ? 0 : next.ids.length);
	if (next === cursor && count === cursor.count) return { events, cursor };
	return { events, cursor: { time, ids: next.ids.slice(0, MAX_SETTLED_IDS), count } };
}

/**
 * The events newer than the cursor, oldest first and at most `maxEvents`, and the cursor moved past exactly
 * those. The common case (nothing or a little happened) reads one page; a counted second (`count`) is checked where it
 * ends instead of read, one request more when it spans pages. A backlog beyond DIRECT_READ_SHARE windows is located
 * and its oldest part emitted, so it drains over several polls without loss. Reads are contiguous
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
	const answeredAt = newest.answeredAt;
	const cursor = notAheadOfAweber(stored, answeredAt, options);
	const unchanged = { events: [], cursor };
	// A settled second is checked, not read: what is newer is read (times are whole seconds, so a millisecond after the
	// second is past all of it), then one look at where the second should end.
	if (cursor.count !== undefined && cursor.time !== null) {
		const newer = await readPast(fetchPage, { time: cursor.time + 1, ids: [] }, options);
		if (newer === undefined) return unchanged;
		if (await secondUnchanged(fetchPage, newer.reading, cursor.time, cursor.count, options)) return emitOldest(cursor, newer, options, answeredAt, true);
	}
	const past = await readPast(fetchPage, cursor, options);
	if (past === undefined) return unchanged;
	return emitOldest(cursor, past, options, answeredAt, false);
}
