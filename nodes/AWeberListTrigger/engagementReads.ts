import type { IDataObject } from 'n8n-workflow';

import type { AweberContext } from '../shared/aweberContext';
import { requireCollectionPage, NEXT_PAGE_SOURCE } from '../shared/collections';
import { AWEBER_MAX_PAGE_SIZE } from '../shared/constants';
import { parseAweberTime } from '../shared/aweberTime';
import { aweberGet } from '../shared/transport';

/*
 * One sent broadcast's opens or clicks, read newest first (AWeber's order for both, docs/aweber-behaviour.md#broadcast-opens-and-clicks)
 * down to where the trigger read up to last time. AWeber pages them with opaque `before` / `after` cursors that it hands
 * out only in a page's links: a page's `next_collection_link` (`after=`) goes on to older entries, and the newest page
 * carries no link to anything newer, so every poll starts at the newest page and stops at the stored position.
 */

export type EngagementEvent = 'broadcastOpened' | 'linkClicked';

/** One open or click: its time (epoch ms), a key that tells it from the others of its second, and AWeber's entry. */
export interface Engagement {
	time: number;
	key: string;
	entry: IDataObject;
}

/**
 * Where one broadcast was read up to: the newest emitted time and the keys emitted at exactly that second (AWeber's
 * times are whole seconds). `time: null`: nothing emitted yet, every entry is new (a broadcast sent while watching).
 */
export interface EngagementPosition {
	time: number | null;
	keys: string[];
}

export interface EngagementReading {
	/** Newer than the position, oldest first. */
	events: Engagement[];
	/** False when the read stopped (page bound) before it reached the position: nothing may be emitted from it. */
	complete: boolean;
	calls: number;
}

/**
 * Most pages one broadcast's read takes in one poll: 20,000 opens or clicks since the last poll, far beyond a list's
 * pace between two polls. Past it nothing is emitted for that broadcast and the poll says so; the position stays.
 */
export const MAX_PAGES_PER_BROADCAST = 200;

export function engagementPath(accountId: string, listId: string, broadcastId: string, event: EngagementEvent): string {
	return `/accounts/${accountId}/lists/${listId}/broadcasts/${broadcastId}/${event === 'broadcastOpened' ? 'opens' : 'clicks'}`;
}

/** The query of the newest page: AWeber's largest page; for clicks, one entry per click with its URL (`detailed=true`). */
export function engagementQuery(event: EngagementEvent, pageSize = AWEBER_MAX_PAGE_SIZE): IDataObject {
	return event === 'broadcastOpened' ? { page_size: pageSize } : { page_size: pageSize, detailed: true };
}

/** What tells two entries of one second apart: the subscriber (one open each), and for clicks also the URL. */
function baseKey(entry: IDataObject, event: EngagementEvent): string {
	const who = String(entry.subscriber_link ?? entry.email ?? '');
	return event === 'broadcastOpened' ? who : `${who} ${String(entry.url ?? '')}`;
}

/** A detailed click's time is its `clicked_at` (AWeber gives `event_time` the same value); an open's its `event_time`. */
export function engagementTime(entry: IDataObject): number | undefined {
	return parseAweberTime(entry.clicked_at ?? entry.event_time);
}

/**
 * Keys for entries read newest first: the base key plus how many identical entries (same second, same key) are older,
 * so two clicks of one link by one subscriber in one second stay two events, and an entry keeps its key when newer
 * ones arrive above it.
 */
function keyed(entries: Array<{ time: number; entry: IDataObject }>, event: EngagementEvent): Engagement[] {
	const counts = new Map<string, number>();
	const oldestFirst = [...entries].reverse().map(({ time, entry }) => {
		const base = `${time} ${baseKey(entry, event)}`;
		const seen = counts.get(base) ?? 0;
		counts.set(base, seen + 1);
		return { time, key: `${baseKey(entry, event)}#${seen}`, entry };
	});
	return oldestFirst;
}

/** Whether an entry at or after the position is new: all but those emitted at the position's second. */
function isNew(event: Engagement, position: EngagementPosition): boolean {
	return event.time !== position.time || !position.keys.includes(event.key);
}

/**
 * The broadcast's entries newer than `position`, oldest first. `position: 'newest'` reads the newest second only (the
 * position a broadcast already sent when watching began starts at). Entries without a time are no events.
 */
export async function readEngagements(
	context: AweberContext,
	path: string,
	event: EngagementEvent,
	position: EngagementPosition | 'newest',
	maxPages = MAX_PAGES_PER_BROADCAST,
): Promise<EngagementReading> {
	const read: Array<{ time: number; entry: IDataObject }> = [];
	let floor: number | null = position === 'newest' ? null : position.time;
	let link: string | undefined;
	let calls = 0;
	let reached = false;
	while (!reached && calls < maxPages) {
		const body = link === undefined ? await aweberGet(context, path, engagementQuery(event)) : await aweberGet(context, link, undefined, { source: NEXT_PAGE_SOURCE });
		calls++;
		const page = requireCollectionPage(context, body, `reading a broadcast's ${event === 'broadcastOpened' ? 'opens' : 'clicks'}`);
		for (const entry of page.entries) {
			const time = engagementTime(entry);
			if (time === undefined) continue;
			// Watching begins at the newest second there is: its entries count as seen, older ones are not read.
			if (position === 'newest' && floor === null) floor = time;
			if (floor !== null && time < floor) {
				reached = true;
				break;
			}
			read.push({ time, entry });
		}
		link = page.next_collection_link || undefined;
		if (link === undefined || page.entries.length === 0) reached = true;
	}
	const events = keyed(read, event);
	if (position === 'newest') return { events, complete: reached, calls };
	return { events: events.filter((found) => isNew(found, position)), complete: reached, calls };
}

/** The position after emitting `emitted` (oldest first): its newest second, with every key emitted there. */
export function advancePosition(position: EngagementPosition, emitted: Engagement[]): EngagementPosition {
	const newest = emitted.at(-1);
	if (newest === undefined) return position;
	const keys = emitted.filter((found) => found.time === newest.time).map((found) => found.key);
	if (position.time === newest.time) keys.unshift(...position.keys);
	return { time: newest.time, keys: [...new Set(keys)] };
}
