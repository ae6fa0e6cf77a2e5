// What the tests of the poll trigger's cursor (nodes/AWeberListTrigger/eventCursor.ts) share: a newest-first AWeber
// collection in memory, read by offset pages as AWeber's ws.start / ws.size, and polls until nothing is new.
import {
	collectNewEvents,
	type CollectOptions,
	type EventCursor,
	type StreamEvent,
	type StreamPage,
} from '../../nodes/AWeberListTrigger/eventCursor';

/** The options of a poll as the trigger gives them (pages of 100), nothing said of a future cursor or a broken read. */
export function pollOptions(overrides: Partial<CollectOptions> = {}): CollectOptions {
	return { pageSize: 100, maxEvents: 1000, onFutureCursor: () => undefined, onBrokenRead: () => undefined, ...overrides };
}

/** A start from one page: the newest event's second, with the ids of that page at it. */
export function cursorAtNewest(page: { events: StreamEvent[] }): EventCursor {
	const newest = page.events[0];
	if (newest === undefined) return { time: null, ids: [] };
	return { time: newest.time, ids: page.events.filter((event) => event.time === newest.time).map((event) => event.id) };
}

/** A newest-first AWeber collection in memory, with offset pages like ws.start / ws.size. */
export class FakeCollection {
	/** Newest first; among equal times the later added comes first, as AWeber's desc sort of a stable asc order. */
	readonly entries: StreamEvent[] = [];

	requests = 0;

	/** The offset of each page read, in order. */
	readonly offsets: number[] = [];

	/** Runs before each page is served: lets a test add or remove entries while a poll is under way. */
	beforeEachPage?: () => void;

	/** AWeber's clock as its answers' `Date` says (epoch ms); none when undefined. */
	answeredAt?: number;

	private nextId = 1;

	/** Runs `act` once, just before the second page read from now is served: a change between two page reads of a poll. */
	beforeSecondPage(act: () => void): void {
		const at = this.requests + 2;
		this.beforeEachPage = () => {
			if (this.requests === at) act();
		};
	}

	add(time: number, count = 1): StreamEvent[] {
		const added: StreamEvent[] = [];
		for (let index = 0; index < count; index++) {
			const event = { id: String(this.nextId++), time, json: {} };
			const position = this.entries.findIndex((entry) => entry.time <= time);
			this.entries.splice(position < 0 ? this.entries.length : position, 0, event);
			added.push(event);
		}
		return added;
	}

	fetch = async (offset: number, size: number): Promise<StreamPage> => {
		this.requests++;
		this.offsets.push(offset);
		this.beforeEachPage?.();
		const page = this.entries.slice(offset, offset + size);
		return { events: page, hasMore: offset + size < this.entries.length, entryCount: page.length, answeredAt: this.answeredAt };
	};
}

/** Polls until a poll emits nothing; returns every emitted event in order, each poll's size and the last cursor. */
export async function drain(collection: FakeCollection, start: EventCursor, pollOptions: CollectOptions, between?: () => void) {
	let cursor = start;
	const emitted: StreamEvent[] = [];
	const sizes: number[] = [];
	for (let poll = 0; poll < 1000; poll++) {
		const result = await collectNewEvents(collection.fetch, cursor, pollOptions);
		if (result.events.length === 0) return { emitted, sizes, cursor };
		emitted.push(...result.events);
		sizes.push(result.events.length);
		cursor = result.cursor;
		between?.();
	}
	throw new Error('Did not drain');
}
