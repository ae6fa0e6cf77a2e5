import { runInThisContext } from 'node:vm';

import { parseAweberTime } from '../../nodes/shared/aweberTime';
import { collectNewEvents, PAGE_OVERLAP } from '../../nodes/AWeberListTrigger/eventCursor';
import { cursorAtNewest, drain, FakeCollection, pollOptions } from './poll-trigger-cursor.helpers';

const options = pollOptions();

describe('AWeber Polling Trigger cursor', () => {
	it('costs one request when nothing happened', async () => {
		const collection = new FakeCollection();
		for (let second = 1; second <= 250; second++) collection.add(second * 1000);
		const cursor = cursorAtNewest(await collection.fetch(0, 100));
		collection.requests = 0;
		const result = await collectNewEvents(collection.fetch, cursor, options);
		expect(result).toEqual({ events: [], cursor });
		expect(collection.requests).toBe(1);
	});

	it('emits events sharing the cursor time exactly once, by the ids seen at that time', async () => {
		const collection = new FakeCollection();
		const first = collection.add(5000, 3);
		const cursor = cursorAtNewest(await collection.fetch(0, 100));
		expect(cursor).toEqual({ time: 5000, ids: expect.arrayContaining(first.map((event) => event.id)) });
		const sameSecond = collection.add(5000, 2);
		const later = collection.add(6000, 1);
		const result = await collectNewEvents(collection.fetch, cursor, options);
		expect(result.events.map((event) => event.id)).toEqual([...sameSecond, ...later].map((event) => event.id));
		expect(result.cursor).toEqual({ time: 6000, ids: [later[0].id] });
		expect((await collectNewEvents(collection.fetch, result.cursor, options)).events).toEqual([]);
	});

	it('drains a deep backlog oldest first over several bounded polls, none lost or repeated', async () => {
		const collection = new FakeCollection();
		collection.add(0, 10);
		const start = cursorAtNewest(await collection.fetch(0, 100));
		// 5,000 events, in runs of 7 sharing a second.
		for (let index = 0; index < 5000; index++) collection.add(1000 + Math.floor(index / 7) * 1000);
		collection.requests = 0;
		const { emitted, sizes } = await drain(collection, start, pollOptions({ maxEvents: 300 }));
		expect(emitted).toHaveLength(5000);
		expect(new Set(emitted.map((event) => event.id)).size).toBe(5000);
		expect(emitted.map((event) => event.time)).toEqual([...emitted.map((event) => event.time)].sort((a, b) => a - b));
		expect(Math.max(...sizes)).toBeLessThanOrEqual(300);
		// Bounded work: a walk, a search and a window per poll, never the whole backlog.
		expect(collection.requests / sizes.length).toBeLessThan(20);
	});

	it('loses nothing when events arrive while a poll reads pages', async () => {
		const collection = new FakeCollection();
		collection.add(0, 1);
		const start = cursorAtNewest(await collection.fetch(0, 100));
		let time = 1000;
		for (let index = 0; index < 2500; index++) collection.add((time += index % 3 === 0 ? 1000 : 0));
		// Three new events before every page served: they push the older entries down mid-poll.
		collection.beforeEachPage = () => {
			if (collection.entries.length < 4000) collection.add((time += 1000), 3);
		};
		const { emitted } = await drain(collection, start, pollOptions({ maxEvents: 250 }));
		collection.beforeEachPage = undefined;
		const all = collection.entries.slice(0, -1);
		expect(emitted.map((event) => event.id).sort()).toEqual(all.map((event) => event.id).sort());
		expect(new Set(emitted.map((event) => event.id)).size).toBe(all.length);
	});

	it('emits nothing and keeps its cursor when more entries vanish between two page reads than the pages overlap, and the next poll reads them all', async () => {
		const collection = new FakeCollection();
		collection.add(0, 1);
		const start = cursorAtNewest(await collection.fetch(0, 100));
		let time = 1000;
		for (let index = 0; index < 250; index++) collection.add((time += 1000));
		// Before the second page: the newest entries removed, which pulls every older one up past the overlap.
		let served = 0;
		collection.beforeEachPage = () => {
			if (++served === 2) collection.entries.splice(0, PAGE_OVERLAP + 10);
		};
		let broken = 0;
		const disturbed = await collectNewEvents(collection.fetch, start, { ...options, onBrokenRead: () => broken++ });
		collection.beforeEachPage = undefined;
		expect(broken).toBe(1);
		expect(disturbed.events).toEqual([]);
		expect(disturbed.cursor).toEqual(start);

		const next = await collectNewEvents(collection.fetch, disturbed.cursor, options);
		const remaining = collection.entries.slice(0, -1);
		expect(next.events.map((event) => event.id).sort()).toEqual(remaining.map((event) => event.id).sort());
	});

	it('handles a run of events sharing one second across page boundaries, cursor in the middle of it', async () => {
		const collection = new FakeCollection();
		collection.add(7000, 150);
		const start = cursorAtNewest(await collection.fetch(0, 100));
		// The first page showed only 100 of the 150: the other 50 count as new at that second.
		expect(start.ids).toHaveLength(100);
		collection.add(7000, 120);
		const { emitted, cursor } = await drain(collection, start, pollOptions({ maxEvents: 60 }));
		expect(emitted).toHaveLength(170);
		expect(cursor.ids).toHaveLength(270);
	});

	it('takes everything as new when the collection was empty when watching began, oldest first', async () => {
		const collection = new FakeCollection();
		const start = cursorAtNewest(await collection.fetch(0, 100));
		expect(start).toEqual({ time: null, ids: [] });
		const added = [...collection.add(1000, 2), ...collection.add(2000, 1)];
		const result = await collectNewEvents(collection.fetch, start, options);
		expect(result.events.map((event) => event.time)).toEqual([1000, 1000, 2000]);
		expect(result.events.map((event) => event.id).sort()).toEqual(added.map((event) => event.id).sort());
	});

	it('gives up without moving the cursor when the poll runs out of time', async () => {
		const collection = new FakeCollection();
		collection.add(1000, 1);
		const cursor = cursorAtNewest(await collection.fetch(0, 100));
		collection.add(2000, 5);
		const result = await collectNewEvents(collection.fetch, cursor, { ...options, outOfTime: () => true });
		expect(result).toEqual({ events: [], cursor });
	});
});

describe('AWeber timestamps', () => {
	it.each([
		['2015-10-13T16:19:20-04:00', Date.UTC(2015, 9, 13, 20, 19, 20)],
		['2017-11-15 10:46:07.926074-05:00', Date.UTC(2017, 10, 15, 15, 46, 7, 926)],
		['2025-01-06T09:00:00+00:00', Date.UTC(2025, 0, 6, 9)],
		['2025-01-06T09:00:00Z', Date.UTC(2025, 0, 6, 9)],
		['2025-01-06 09:00:00+0100', Date.UTC(2025, 0, 6, 8)],
		['2015-10-13T16:19:53', Date.UTC(2015, 9, 13, 16, 19, 53)],
		['  2025-01-06T09:00:00Z ', Date.UTC(2025, 0, 6, 9)],
	])('reads %p', (text, expected) => {
		expect(parseAweberTime(text)).toBe(expected);
	});

	it('reads a timestamp without a zone as UTC, and an offset as given, whatever the machine\'s time zone', () => {
		// jest gives a test file a copy of process.env: the time zone is the host process's own.
		const hostEnv = runInThisContext('process.env') as NodeJS.ProcessEnv;
		const zone = hostEnv.TZ;
		hostEnv.TZ = 'America/New_York';
		try {
			expect(new Date(2015, 9, 13).getTimezoneOffset()).toBe(240);
			expect(parseAweberTime('2015-10-13T16:19:53')).toBe(Date.UTC(2015, 9, 13, 16, 19, 53));
			expect(parseAweberTime('2015-10-13 16:19:53.5')).toBe(Date.UTC(2015, 9, 13, 16, 19, 53, 500));
			expect(parseAweberTime('2025-01-06 09:00:00+0100')).toBe(Date.UTC(2025, 0, 6, 8));
		} finally {
			if (zone === undefined) delete hostEnv.TZ;
			else hostEnv.TZ = zone;
		}
	});

	it.each([null, undefined, '', 'yesterday', 42])('has no time for %p', (value) => {
		expect(parseAweberTime(value)).toBeUndefined();
	});
});
