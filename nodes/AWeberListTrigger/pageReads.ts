import type { CollectOptions, FetchPage, StreamEvent, StreamPage } from './eventCursor';

/** Bisection steps, a bound far above any real backlog (2^40 pages). */
const MAX_SEARCH_STEPS = 40;

/**
 * Entries each page read repeats of the page before. The collection is read by offset, and an entry removed above the
 * read (an unsubscriber deleted, a test broadcast removed) between two page reads moves every later entry up by one:
 * without the overlap the entry that moved across the page boundary would never be read. Up to one fewer than this
 * many removals between two page reads are survived (the previous page's last entry, the last of the repeated ones, is
 * found again); more, and the read gives up without moving the cursor, so the next poll reads again. 10 of AWeber's
 * 100 per page costs a tenth more requests for a long backlog, and nothing when one page holds everything new.
 */
export const PAGE_OVERLAP = 10;

/** The offset of an event within its page: its entry's place (entries without a usable time are no events). */
export function placeInPage(event: StreamEvent, index: number): number {
	return event.at ?? index;
}

/** Strictly older than the cursor's time (`null`: nothing is): every event from here on was emitted by an earlier poll. */
export function isBeyondCursor(event: StreamEvent, cursorTime: number | null): boolean {
	return event.time < (cursorTime ?? -Infinity);
}

export interface Reading {
	events: StreamEvent[];
	/** Whether an event older than the cursor (or the end of the collection) was reached. */
	reachedCursor: boolean;
	/** Reached: the offset of the first entry older than the cursor (or the collection's length). Else: after the last entry read. */
	end: number;
	/** The last page read and its offset: what a check of the entries just below `end` can use without asking again. */
	last?: { start: number; page: StreamPage };
}

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
export async function readDown(fetchPage: FetchPage, offset: number, cursorTime: number | null, options: CollectOptions, maxPages: number): Promise<Reading | undefined> {
	const events: StreamEvent[] = [];
	let position = offset;
	let anchor: StreamEvent | undefined;
	for (let pageNumber = 0; pageNumber < maxPages; pageNumber++) {
		if (options.outOfTime?.()) return undefined;
		// The first page starts at `offset` (position is offset then), each later one PAGE_OVERLAP entries back.
		const start = Math.max(offset, position - PAGE_OVERLAP);
		const page = await fetchPage(start, options.pageSize);
		const { events: entries, hasMore, entryCount } = page;
		if (anchor !== undefined && !continuesFrom(entries, anchor)) {
			options.onBrokenRead();
			return undefined;
		}
		for (const [index, event] of entries.entries()) {
			if (isBeyondCursor(event, cursorTime)) return { events, reachedCursor: true, end: start + placeInPage(event, index), last: { start, page } };
			events.push(event);
		}
		position = start + entryCount;
		anchor = entries.at(-1) ?? anchor;
		if (!hasMore || entryCount === 0) return { events, reachedCursor: true, end: position, last: { start, page } };
	}
	return { events, reachedCursor: false, end: position };
}

/**
 * Where the cursor lies in the newest-first collection: the offset of the first entry older than it (or the
 * collection's length). Galloping then bisection with whole pages, so a deep backlog costs a few requests.
 */
export async function locateCursor(fetchPage: FetchPage, from: number, cursorTime: number | null, options: CollectOptions): Promise<number | undefined> {
	let low = from; // every entry before `low` is at or after the cursor
	let high: number | undefined; // the cursor lies at or before `high`
	let step = Math.max(options.pageSize, from);
	for (let attempt = 0; attempt < MAX_SEARCH_STEPS; attempt++) {
		if (options.outOfTime?.()) return undefined;
		const probe: number = high === undefined ? low + step : high - low <= options.pageSize ? low : low + Math.floor((high - low) / 2);
		const { events, hasMore, entryCount } = await fetchPage(probe, options.pageSize);
		const firstBeyond = events.findIndex((event) => isBeyondCursor(event, cursorTime));
		const beyondAt = firstBeyond < 0 ? -1 : placeInPage(events[firstBeyond], firstBeyond);
		if (beyondAt > 0) return probe + beyondAt;
		if (beyondAt === 0 || entryCount === 0) {
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
