// The AWeber Polling Trigger's stored position (nodes/AWeberListTrigger/eventCursor.ts) at its bounds: what is still a
// position the poll goes on from, what is replaced by a fresh start from now, and how far ahead of AWeber's clock a
// position may lie. docs/triggers.md, "AWeber Polling Trigger" ("Never stuck", "AWeber's clock, within bounds").
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import type { PollRunner } from '../harness/poll';
import { listPath } from '../sandbox/api-test-client';
import { addSubscribers, emailsOf, loggedDuring, pollUntilIdle, triggerWarning, UNLIMITED, watchingTrigger } from './poll-trigger.helpers';

const MINUTE = 60_000;
/** The last time a JavaScript date can hold. */
const LAST_DATE_MS = 8.64e15;

describe('AWeber Polling Trigger: its stored position at the bounds', () => {
	const bed = useTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });

	const subscribersPath = (listId: number) => `/1.0${listPath(bed.sandbox, listId)}/subscribers`;
	/** A whole second of the sandbox's clock, a minute ahead: an AWeber Date this machine's clock does not trail. */
	const aweberNow = () => Math.floor(bed.sandbox.clock.now() / 1000) * 1000 + MINUTE;

	function storePosition(runner: PollRunner, cursor: unknown): void {
		const key = `node:${runner.workflow.node.name}`;
		runner.workflow.staticData[key] = { ...(runner.workflow.staticData[key] as IDataObject), cursor };
	}

	it.each([
		['a time written as text', { time: '1700000000000', ids: [] }, '{"time":"1700000000000","ids":[]}'],
		['an id that is a number', { time: 1700000000000, ids: ['17', 18] }, '{"time":1700000000000,"ids":["17",18]}'],
		['only ids that are numbers', { time: 1700000000000, ids: [17, 18] }, '{"time":1700000000000,"ids":[17,18]}'],
	])('a stored position with %s is replaced by a fresh start with a warning, and the trigger goes on', async (_name, cursor, shown) => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		storePosition(runner, cursor);
		const lines = await loggedDuring(async () => expect(await runner.poll()).toBeNull());
		expect(lines).toEqual([triggerWarning(runner, `the stored position (${shown}) is not a usable position; watching again from now`)]);
		const added = await addSubscribers(bed, empty, 2, 'after', 1000);
		expect(emailsOf(await pollUntilIdle(runner))).toEqual(added);
	});

	it("a stored position at JavaScript's last date is a position: it is brought back to AWeber's now", async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		storePosition(runner, { time: LAST_DATE_MS, ids: [] });
		const dated = aweberNow();
		bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: subscribersPath(empty), rewrite: { date: new Date(dated).toUTCString() } });
		const lines = await loggedDuring(async () => expect(await runner.poll()).toBeNull());
		const future = `the stored position +275760-09-13T00:00:00.000Z is ahead of AWeber's clock (${new Date(dated).toISOString()}); watching again from AWeber's now`;
		expect(lines).toEqual([triggerWarning(runner, future)]);
		expect(runner.workflow.nodeStaticData.cursor).toEqual({ time: dated, ids: [] });
	});

	it.each([
		['exactly 10 minutes', 10 * MINUTE],
		['10 minutes and a second', 10 * MINUTE + 1000],
	])("a stored position %s ahead of AWeber's Date is kept only within the 10 minutes; beyond, it is brought back and logged", async (_name, ahead) => {
		const kept = ahead <= 10 * MINUTE;
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		const dated = aweberNow();
		storePosition(runner, { time: dated + ahead, ids: [] });
		bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: subscribersPath(empty), rewrite: { date: new Date(dated).toUTCString() } });
		const lines = await loggedDuring(async () => expect(await runner.poll()).toBeNull());
		const future = `the stored position ${new Date(dated + ahead).toISOString()} is ahead of AWeber's clock (${new Date(dated).toISOString()}); watching again from AWeber's now`;
		expect(lines).toEqual(kept ? [] : [triggerWarning(runner, future)]);
		expect(runner.workflow.nodeStaticData.cursor).toEqual({ time: kept ? dated + ahead : dated, ids: [] });
	});

	it('with pages AWeber shortens to 20 entries, emits a backlog of 150 new subscribers in one poll', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		// The poll asks for pages of 100: its first read (13 pages, 10 entries further each) ends at entry 140; the
		// cursor is located past the end, at 150, and read again from the top.
		bed.sandbox.pages.cap(20);
		const added = await addSubscribers(bed, empty, 150, 'short-pages', 1000);
		expect(emailsOf(await runner.poll())).toEqual([...added].sort());
		expect(await runner.poll()).toBeNull();
	});

	it('ends its read at a page without entries, even one that links a next page: one request', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		bed.sandbox.clearRequests();
		bed.sandbox.faults.next(50, 'rewrite', { method: 'GET', pathPrefix: subscribersPath(empty), rewrite: { nextCollectionLink: 'self' } });
		expect(await runner.poll()).toBeNull();
		expect(bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'))).toHaveLength(1);
	});
});
