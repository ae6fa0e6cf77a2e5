import type { CollectOptions, EventCursor, FetchPage, StreamEvent, StreamPage } from './eventCursor';
import { placeInPage, type Reading } from './pageReads';

/**
 * How far AWeber's clock (its `Date` header) must be past a second before that second counts as settled: no entry
 * dated in it is expected any more (AWeber dates entries with that clock when it records them:
 * docs/aweber-behaviour.md#answers). A minute is n8n's shortest poll interval and far above the time AWeber takes to
 * answer a request; the poll right after an import reads that second in full once more, later polls do not.
 */
export const SETTLE_MS = 60_000;

/** Ids a settled position keeps of its second (about 11 KB of static data); its `count` says how many there were. */
export const MAX_SETTLED_IDS = 1000;

/** Whether AWeber's clock, as its first answer of the poll said, is past `time` by SETTLE_MS. */
export function isSettled(time: number, answeredAt: number | undefined): boolean {
	return answeredAt !== undefined && answeredAt >= time + SETTLE_MS;
}

/** The distinct ids of the events at `time`, in their order. */
export function idsAt(events: StreamEvent[], time: number): string[] {
	return [...new Set(events.filter((event) => event.time === time).map((event) => event.id))];
}

/** Whether the cursor's ids are fewer than the entries its second held: then only `count` tells what was seen. */
export function hasPartialIds(cursor: EventCursor): boolean {
	return cursor.count !== undefined && cursor.ids.length < cursor.count;
}

/** The event at `offset` of the collection on a page read at `start`; undefined when that entry is not there or is no event. */
function eventAt(page: StreamPage, start: number, offset: number): StreamEvent | undefined {
	return page.events.find((event, index) => start + placeInPage(event, index) === offset);
}

/**
 * Whether the cursor's second still holds exactly `count` entries, starting at `reading.end` (the first entry at or
 * older than that second): its last entry is at that second and the next is older, or there is none. Told by the last
 * page the reading got when it covers them (no request), else by one request of two entries. A change of any kind
 * (an entry added or removed there, entries added above meanwhile, an entry without a time) answers false, and the
 * poll then reads the second in full. Sorting alone is relied on: AWeber promises no order among entries of one second.
 */
export async function secondUnchanged(fetchPage: FetchPage, reading: Reading, time: number, count: number, options: CollectOptions): Promise<boolean> {
	if (options.outOfTime?.()) return false;
	const lastOffset = reading.end + count - 1;
	const last = reading.last;
	const covered = last !== undefined && last.start <= lastOffset && (lastOffset + 1 < last.start + last.page.entryCount || !last.page.hasMore);
	const start = covered ? last.start : lastOffset;
	const page = covered ? last.page : await fetchPage(lastOffset, 2);
	const lastOfSecond = eventAt(page, start, lastOffset);
	if (lastOfSecond?.time !== time) return false;
	const next = eventAt(page, start, lastOffset + 1);
	if (next !== undefined) return next.time < time;
	// No event after it: the end of the collection, or an entry without a usable time (not knowable: read in full).
	return lastOffset + 1 - start >= page.entryCount && !page.hasMore;
}
