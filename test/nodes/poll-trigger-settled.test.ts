// A settled second (AWeber's clock a minute past it) is counted and checked instead of read: what the check catches,
// on a collection in memory read by offset pages as AWeber's ws.start / ws.size.
import { collectNewEvents, startingCursor, type EventCursor } from '../../nodes/AWeberListTrigger/eventCursor';
import type { StreamEvent, StreamPage } from '../../nodes/AWeberListTrigger/eventCursor';
import type { Reading } from '../../nodes/AWeberListTrigger/pageReads';
import { isSettled, secondUnchanged, SETTLE_MS } from '../../nodes/AWeberListTrigger/settledSecond';
import { drain, FakeCollection, pollOptions } from './poll-trigger-cursor.helpers';

const IMPORT_SECOND = 1_800_000_000_000;
const MINUTE = 60_000;

/** A collection with older entries, then `count` in one second; AWeber's clock `after` ms past that second. */
function imported(count: number, after = 2 * MINUTE) {
	const collection = new FakeCollection();
	for (let second = 1; second <= 30; second++) collection.add(IMPORT_SECOND - second * 1000);
	const ids = collection.add(IMPORT_SECOND, count).map((event) => event.id);
	collection.answeredAt = IMPORT_SECOND + after;
	return { collection, ids };
}

describe('AWeber Polling Trigger: a settled second', () => {
	it('is counted at activation and checked by idle polls in two requests, from 150 to 10,000 in it', async () => {
		for (const size of [150, 1000, 10_000]) {
			const { collection } = imported(size);
			const start = await startingCursor(collection.fetch, pollOptions(), 100);
			expect(start?.cursor).toMatchObject({ time: IMPORT_SECOND, count: size });
			collection.requests = 0;
			const idle = await collectNewEvents(collection.fetch, start!.cursor, pollOptions());
			expect(idle).toEqual({ events: [], cursor: start!.cursor });
			expect(collection.requests).toBe(2);
		}
	});

	it('is read in full while recent: the position keeps every id and no count', async () => {
		const { collection, ids } = imported(300, 30_000);
		const start = await startingCursor(collection.fetch, pollOptions(), 100);
		expect(start?.cursor).toEqual({ time: IMPORT_SECOND, ids: expect.arrayContaining(ids) });
		expect(start?.cursor).not.toHaveProperty('count');
	});

	it('counts a position stored by an earlier version on its first settled poll, emitting nothing twice', async () => {
		const { collection, ids } = imported(2500);
		const earlier: EventCursor = { time: IMPORT_SECOND, ids: [...ids] };
		const first = await collectNewEvents(collection.fetch, earlier, pollOptions());
		expect(first.events).toEqual([]);
		expect(first.cursor).toMatchObject({ time: IMPORT_SECOND, count: 2500 });
		expect(first.cursor.ids).toHaveLength(1000);
		collection.requests = 0;
		expect(await collectNewEvents(collection.fetch, first.cursor, pollOptions())).toEqual({ events: [], cursor: first.cursor });
		expect(collection.requests).toBe(2);
	});

	it('emits an entry that appears in a counted second while it keeps every id', async () => {
		const { collection, ids } = imported(400);
		const late: Array<[number, number]> = [];
		const options = pollOptions({ onLateEntries: (time, count) => late.push([time, count]) });
		const cursor: EventCursor = { time: IMPORT_SECOND, ids, count: 400 };
		const [arrived] = collection.add(IMPORT_SECOND, 1);
		const result = await collectNewEvents(collection.fetch, cursor, options);
		expect(result.events.map((event) => event.id)).toEqual([arrived.id]);
		expect(result.cursor).toMatchObject({ time: IMPORT_SECOND, count: 401 });
		expect(late).toEqual([]);
		expect(await collectNewEvents(collection.fetch, result.cursor, options)).toEqual({ events: [], cursor: result.cursor });
	});

	it('says so, emitting none of that second, when it kept only some ids; newer entries fire once', async () => {
		const { collection, ids } = imported(3000);
		const late: Array<[number, number]> = [];
		const options = pollOptions({ onLateEntries: (time, count) => late.push([time, count]) });
		const cursor: EventCursor = { time: IMPORT_SECOND, ids: ids.slice(0, 1000), count: 3000 };
		collection.add(IMPORT_SECOND, 2);
		const newer = collection.add(IMPORT_SECOND + 5000, 3);
		const { emitted, cursor: last } = await drain(collection, cursor, options);
		expect(emitted.map((event) => event.id)).toEqual(newer.map((event) => event.id));
		expect(late).toEqual([[IMPORT_SECOND, 2]]);
		expect(last).toMatchObject({ time: IMPORT_SECOND + 5000 });
	});

	it('reads the second again when one of it is deleted, emits nothing, and counts it anew', async () => {
		const { collection } = imported(5000);
		const start = (await startingCursor(collection.fetch, pollOptions(), 100))!.cursor;
		const index = collection.entries.findIndex((event) => event.time === IMPORT_SECOND);
		collection.entries.splice(index + 2500, 1);
		const after = await collectNewEvents(collection.fetch, start, pollOptions());
		expect(after.events).toEqual([]);
		expect(after.cursor).toMatchObject({ count: 4999 });
	});

	it('emits what is newer once, and counts the newer second only once it is settled too', async () => {
		const { collection } = imported(5000);
		const start = (await startingCursor(collection.fetch, pollOptions(), 100))!.cursor;
		const newer = collection.add(IMPORT_SECOND + 2 * MINUTE, 150);
		const result = await collectNewEvents(collection.fetch, start, pollOptions());
		expect(result.events.map((event) => event.id)).toEqual(newer.map((event) => event.id));
		expect(result.cursor).not.toHaveProperty('count');
		collection.answeredAt = IMPORT_SECOND + 4 * MINUTE;
		const settled = await collectNewEvents(collection.fetch, result.cursor, pollOptions());
		expect(settled).toEqual({ events: [], cursor: { time: IMPORT_SECOND + 2 * MINUTE, ids: expect.any(Array), count: 150 } });
	});
});

describe('AWeber Polling Trigger: the check of a counted second, page by page', () => {
	const T = IMPORT_SECOND;
	const event = (id: string, time: number): StreamEvent => ({ id, time, json: {} });
	const page = (events: StreamEvent[], hasMore: boolean, entryCount = events.length): StreamPage => ({ events, hasMore, entryCount });
	/** A fetch that answers `answer` and notes each (offset, size) asked. */
	const fetcher = (answer: StreamPage) => {
		const asked: Array<[number, number]> = [];
		const fetch = async (offset: number, size: number) => {
			asked.push([offset, size]);
			return answer;
		};
		return { fetch, asked };
	};
	/** A reading whose second starts at offset 7 (3 entries: 7, 8, 9), with the last page read, if any. */
	const reading = (last?: Reading['last']): Reading => ({ events: [], reachedCursor: true, end: 7, last });
	// Ten entries from offset 0: three newer, four of the counted second's neighbours, the second's three at 7-9.
	const tenFrom0 = (hasMore: boolean) => page([...Array(7)].map((_, index) => event(`n${index}`, T + 1000)).concat([event('a', T), event('b', T), event('c', T)]), hasMore);

	it('is settled from exactly a minute of AWeber\'s clock past the second, not before, nor without a clock', () => {
		expect(isSettled(T, T + SETTLE_MS)).toBe(true);
		expect(isSettled(T, T + SETTLE_MS - 1)).toBe(false);
		expect(isSettled(T, undefined)).toBe(false);
	});

	it('uses the last page read when it holds the second and the entry after it, without a request', async () => {
		const { fetch, asked } = fetcher(page([], false));
		const last = { start: 0, page: page([...tenFrom0(true).events, event('older', T - 1000)], true) };
		expect(await secondUnchanged(fetch, reading(last), T, 3, pollOptions())).toBe(true);
		expect(asked).toEqual([]);
	});

	it('asks for the second\'s last entry and the next (two entries) when the last page read does not show both', async () => {
		const answer = page([event('c', T), event('older', T - 1000)], true);
		// No page read, a page that ends with the second's last entry while more follow, a page that starts after it.
		for (const last of [undefined, { start: 0, page: tenFrom0(true) }, { start: 10, page: page([event('older', T - 1000)], true) }]) {
			const { fetch, asked } = fetcher(answer);
			expect(await secondUnchanged(fetch, reading(last), T, 3, pollOptions())).toBe(true);
			expect(asked).toEqual([[9, 2]]);
		}
	});

	it('answers "changed" (read it in full) when the second\'s last entry is gone, or what follows has no usable time', async () => {
		expect(await secondUnchanged(fetcher(page([], false)).fetch, reading(), T, 3, pollOptions())).toBe(false);
		// The second's last entry, then an entry that is no event (2 entries, 1 event): not knowable, so read in full.
		expect(await secondUnchanged(fetcher(page([event('c', T)], false, 2)).fetch, reading(), T, 3, pollOptions())).toBe(false);
		// The second's last entry is the collection's last: unchanged.
		expect(await secondUnchanged(fetcher(page([event('c', T)], false)).fetch, reading(), T, 3, pollOptions())).toBe(true);
		expect(await secondUnchanged(fetcher(page([event('c', T)], true)).fetch, reading(), T, 3, pollOptions())).toBe(false);
	});

	it('gives up without a request once the poll is out of time', async () => {
		const { fetch, asked } = fetcher(page([event('c', T), event('older', T - 1000)], true));
		expect(await secondUnchanged(fetch, reading(), T, 3, pollOptions({ outOfTime: () => true }))).toBe(false);
		expect(asked).toEqual([]);
	});
});
