import type { IDataObject } from 'n8n-workflow';

import { readCollectionPageAt } from '../shared/collections';
import type { AweberContext } from '../shared/aweberContext';
import { parseAweberTime } from '../shared/aweberTime';
import { MAX_CLOCK_SKEW_MS, type FetchPage, type StreamEvent } from './eventCursor';

export type PollEvent = 'subscriberAdded' | 'subscriberUnsubscribed' | 'broadcastSent';

/** A newest-first AWeber collection whose entries are the events of one kind. */
interface EventStream {
	path: (accountId: string, listId: string) => string;
	query: IDataObject;
	/** The entry field that orders the collection and dates the event. */
	timeField: string;
	idField: string;
}

const subscribers = (accountId: string, listId: string) => `/accounts/${accountId}/lists/${listId}/subscribers`;

export const EVENT_STREAMS: Record<PollEvent, EventStream> = {
	// The list's find sorts by subscribed_at / unsubscribed_at (AWeber 1.0.41); plain GET orders by time added.
	subscriberAdded: {
		path: subscribers,
		query: { 'ws.op': 'find', sort_key: 'subscribed_at', sort_order: 'desc' },
		timeField: 'subscribed_at',
		idField: 'id',
	},
	subscriberUnsubscribed: {
		path: subscribers,
		query: { 'ws.op': 'find', status: 'unsubscribed', sort_key: 'unsubscribed_at', sort_order: 'desc' },
		timeField: 'unsubscribed_at',
		idField: 'id',
	},
	// AWeber lists sent broadcasts by sent_at, newest first, and lists broadcasts still sending among them.
	broadcastSent: {
		path: (accountId, listId) => `/accounts/${accountId}/lists/${listId}/broadcasts`,
		query: { status: 'sent' },
		timeField: 'sent_at',
		idField: 'broadcast_id',
	},
};

/**
 * AWeber's now for one answer: its `Date`, but never behind this machine's clock or an earlier answer of the same
 * poll; undefined when the answer's `Date` is set aside. A single answer dated in the past (a proxy's stale `Date`, a
 * clock reset to 1970) would otherwise move a stored cursor back and replay everything since; such a date is set
 * aside, and logged. Ahead is believed: AWeber dates its entries with its own clock, which this machine's may trail
 * (docs/aweber-behaviour.md#answers).
 */
function trustedNow(context: AweberContext, dated: number, floor: number): number | undefined {
	if (dated >= floor - MAX_CLOCK_SKEW_MS) return Math.max(dated, floor);
	context.logger.warn(
		`AWeber Polling Trigger: set aside the date of AWeber's answer (${new Date(dated).toISOString()}): it is behind this machine's clock and earlier answers (${new Date(floor).toISOString()})`,
		{ node: context.getNode().name },
	);
	return undefined;
}

/** Pages of one stream, read through the shared transport (pacing, retries, error mapping). */
export function streamPages(context: AweberContext, stream: EventStream, accountId: string, listId: string): FetchPage {
	let latest = -Infinity;
	return async (offset, size) => {
		const { page, answeredAt: dated } = await readCollectionPageAt(context, stream.path(accountId, listId), {
			qs: { ...stream.query, 'ws.start': offset, 'ws.size': size },
		});
		const floor = Math.max(Date.now(), latest);
		const trusted = trustedNow(context, dated, floor);
		// Without a Date to go by, entries are placed against this machine's clock (or an earlier answer), and the page
		// says nothing of AWeber's now: this machine's clock may trail AWeber's, so it must not pull a stored cursor back.
		const answeredAt = trusted ?? floor;
		latest = answeredAt;
		const entries = page.entries;
		const events = entries.flatMap((entry, index): StreamEvent[] => {
			const time = parseAweberTime(entry[stream.timeField]);
			const id = entry[stream.idField];
			// Without its time or ID an entry cannot be placed against the cursor, so it is no event (yet).
			if (time === undefined || (typeof id !== 'number' && typeof id !== 'string')) return [];
			// A time ahead of AWeber's own clock is no real time: taken as it is, it would move the cursor there and
			// hide every event until then. Such an entry is left out, and said so.
			if (time > answeredAt + MAX_CLOCK_SKEW_MS) {
				context.logger.warn(
					`AWeber Polling Trigger: ignored entry ${String(id)}: its ${stream.timeField} (${String(entry[stream.timeField])}) is ahead of AWeber's clock (${new Date(answeredAt).toISOString()})`,
					{ node: context.getNode().name },
				);
				return [];
			}
			// `at`: its place among the page's entries, which offsets count (entries skipped here included).
			return [{ id: String(id), time, json: entry, at: index }];
		});
		return {
			events,
			hasMore: typeof page.next_collection_link === 'string' && page.next_collection_link !== '',
			entryCount: entries.length,
			answeredAt: trusted,
		};
	};
}
