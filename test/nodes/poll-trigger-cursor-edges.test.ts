// The poll trigger's cursor (nodes/AWeberListTrigger/eventCursor.ts) at its edges: the start when watching begins, a
// subscriber who comes again, reads the collection changes under, a collection that never ends.
// docs/triggers.md, "AWeber Polling Trigger".
import { collectNewEvents, PAGE_OVERLAP, startingCursor, type FetchPage } from '../../nodes/AWeberListTrigger/eventCursor';
import { FakeCollection, pollOptions } from './poll-trigger-cursor.helpers';

const options = pollOptions();
const idsOf = (events: Array<{ id: string }>) => events.map((event) => event.id);

describe('AWeber Polling Trigger cursor at its edges', () => {
	it('starts on an empty collection with no time and no ids, in one request', async () => {
		const collection = new FakeCollection();
		expect(await startingCursor(collection.fetch, options, 100)).toEqual({ cursor: { time: null, ids: [] }, complete: true });
		expect(collection.requests).toBe(1);
	});

	it('starts at the newest second, every id of it once; entries added at a later second during that read all fire next', async () => {
		const collection = new FakeCollection();
		const imported = collection.add(7000, 150);
		// Before the second page read: 100 arrive a second later, more than a page read's step pushes down.
		let arrived: ReturnType<FakeCollection['add']> = [];
		collection.beforeSecondPage(() => (arrived = collection.add(8000, 100)));
		const start = await startingCursor(collection.fetch, options, 100);
		expect(start).toEqual({ cursor: { time: 7000, ids: expect.any(Array) }, complete: true });
		expect([...start!.cursor.ids].sort()).toEqual(idsOf(imported).sort());

		const next = await collectNewEvents(collection.fetch, start!.cursor, options);
		expect(idsOf(next.events).sort()).toEqual(idsOf(arrived).sort());
	});

	it('emits a subscriber emitted at the cursor second again when AWeber lists it at a later time (unsubscribed again)', async () => {
		const collection = new FakeCollection();
		const [again, other] = collection.add(5000, 2);
		const cursor = { time: 5000, ids: [again.id, other.id] };
		collection.entries.splice(collection.entries.indexOf(again), 1);
		collection.entries.unshift({ ...again, time: 6000 });
		const result = await collectNewEvents(collection.fetch, cursor, options);
		expect(result).toEqual({ events: [{ ...again, time: 6000 }], cursor: { time: 6000, ids: [again.id] } });
	});

	it('gives up, emitting nothing, when more entries of one second vanish between two page reads than the pages overlap', async () => {
		const collection = new FakeCollection();
		const [before] = collection.add(0);
		const start = { time: 0, ids: [before.id] };
		collection.add(9000, 250);
		// Before the second page read: the 20 newest removed, which pulls the first page's last entry above the overlap.
		collection.beforeSecondPage(() => collection.entries.splice(0, PAGE_OVERLAP + 10));
		let broken = 0;
		const result = await collectNewEvents(collection.fetch, start, { ...options, onBrokenRead: () => broken++ });
		expect({ broken, result }).toEqual({ broken: 1, result: { events: [], cursor: start } });
	});

	it('goes on when 9 entries vanish between two page reads: the second page then begins with the first page\'s last entry', async () => {
		const collection = new FakeCollection();
		for (let second = 1; second <= 150; second++) collection.add(second * 1000);
		collection.beforeSecondPage(() => collection.entries.splice(0, PAGE_OVERLAP - 1));
		let broken = 0;
		const result = await collectNewEvents(collection.fetch, { time: 0, ids: [] }, { ...options, onBrokenRead: () => broken++ });
		expect(broken).toBe(0);
		// The 9 were read before they vanished: every entry fires once.
		expect(result.events.map((event) => event.time)).toEqual(Array.from({ length: 150 }, (_, index) => (index + 1) * 1000));
	});

	it('gives up, emitting nothing, when every entry vanishes between two page reads', async () => {
		const collection = new FakeCollection();
		collection.add(1000, 150);
		collection.beforeSecondPage(() => collection.entries.splice(0));
		let broken = 0;
		const start = { time: 0, ids: [] };
		const result = await collectNewEvents(collection.fetch, start, { ...options, onBrokenRead: () => broken++ });
		expect({ broken, result }).toEqual({ broken: 1, result: { events: [], cursor: start } });
	});

	it('goes on when more entries arrive between two page reads than a page read steps; the next poll emits the rest of them', async () => {
		const collection = new FakeCollection();
		const first = collection.add(1000, 150);
		let arrived: ReturnType<FakeCollection['add']> = [];
		collection.beforeSecondPage(() => (arrived = collection.add(2000, 100)));
		let broken = 0;
		const result = await collectNewEvents(collection.fetch, { time: 0, ids: [] }, { ...options, onBrokenRead: () => broken++ });
		expect(broken).toBe(0);
		// The second page began with the 10 oldest arrivals, which it read; the other 90 lie above what the poll read.
		expect(idsOf(result.events)).toEqual(idsOf([...first, ...arrived.slice(0, 10)]));
		const next = await collectNewEvents(collection.fetch, result.cursor, options);
		expect(idsOf(next.events)).toEqual(idsOf(arrived.slice(10)));
	});

	it('stops looking for its cursor in a collection that never ends after the window and 40 probes, keeping its cursor', async () => {
		let requests = 0;
		// A proxy that answers every offset with a full page of entries newer than the cursor, and a next link.
		const endless: FetchPage = async (offset, size) => {
			if (++requests > 200) throw new Error('The poll never stopped reading');
			const events = Array.from({ length: size }, (_, index) => ({ id: String(offset + index), time: 2e15 - offset - index, json: {} }));
			return { events, hasMore: true, entryCount: size };
		};
		const cursor = { time: 0, ids: [] };
		expect(await collectNewEvents(endless, cursor, options)).toEqual({ events: [], cursor });
		// The direct read: one and a half windows of 1,000 events in pages of 100 that overlap by 10, 20 pages; then at
		// most 40 probes.
		expect(requests).toBe(20 + 40);
	});

	it('stops looking for its cursor in a deep backlog as soon as the poll runs out of time', async () => {
		const collection = new FakeCollection();
		collection.add(0);
		collection.add(1000, 5000);
		const cursor = { time: 0, ids: [collection.entries.at(-1)!.id] };
		// Time runs out once the window (13 pages) is read.
		const result = await collectNewEvents(collection.fetch, cursor, { ...options, outOfTime: () => collection.requests >= 13 });
		expect(result).toEqual({ events: [], cursor });
		expect(collection.requests).toBe(13);
	});

	it('gives up, keeping its cursor, when time runs out while it reads the oldest events of a deep backlog', async () => {
		const collection = new FakeCollection();
		collection.add(0);
		collection.add(1000, 5000);
		const cursor = { time: 0, ids: [collection.entries.at(-1)!.id] };
		// Time runs out after the first read (20 pages), the search (6 probes) and four pages of the second read.
		const result = await collectNewEvents(collection.fetch, cursor, { ...options, outOfTime: () => collection.requests >= 20 + 6 + 4 });
		expect(result).toEqual({ events: [], cursor });
		expect(collection.offsets.slice(20)).toEqual([3620, 7340, 5530, 4625, 5127, 4926, 4000, 4090, 4180, 4270]);
	});

	// The first read (20 pages from 0, each 90 further: one and a half windows) ends at 1,810 without reaching the
	// cursor; the probes then gallop from there (steps of 1,810, doubling) and halve the gap; the read of the oldest 1,000 starts 1,001 above
	// where the cursor was found (its second's one id is read again).
	const pagesFrom = (from: number, count: number) => Array.from({ length: count }, (_, page) => from + page * 90);
	it.each([
		['with older entries below the cursor', 20, 5000, [3620, 7340, 5530, 4625, 5127, 4926], 5001],
		['whose cursor is the collection\'s last entry', 0, 3000, [3620, 2715, 3217, 3016, 2915], 3001],
		['where a probe lands on the first entry older than the cursor', 20, 2022, [3620, 2715, 2262, 2036, 1923, 2023], 2023],
	])('finds its cursor in a deep backlog %s in a few probes, and emits the oldest 1,000 events', async (_name, older, backlog, probes, found) => {
		const collection = new FakeCollection();
		for (let second = 1; second <= older + 1; second++) collection.add(second * 1000);
		const cursor = { time: (older + 1) * 1000, ids: [collection.entries[0].id] };
		const added = collection.add(30_000, backlog);
		const result = await collectNewEvents(collection.fetch, cursor, options);
		expect(idsOf(result.events)).toEqual(idsOf(added.slice(0, 1000)));
		expect(collection.offsets).toEqual([...pagesFrom(0, 20), ...probes, ...pagesFrom(found - 1001, 12)]);
	});
});
