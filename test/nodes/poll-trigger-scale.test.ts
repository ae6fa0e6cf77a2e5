// The AWeber Polling Trigger after an import: 10,000 subscribers in one AWeber second cost at most 2 requests per idle
// poll once that second is settled (counted once, then checked where it ends); activation counts such a second with a
// search instead of reading it; a backlog is read once; each subscriber fires once.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { call, listPath } from '../sandbox/api-test-client';
import { addSubscribers, emailsOf, pollTrigger, UNLIMITED } from './poll-trigger.helpers';
import { importInOneSecond, measuredPoll, SETTLE_SANDBOX_MS } from './poll-trigger-scale.helpers';

jest.setTimeout(120_000);

describe('AWeber Polling Trigger at scale', () => {
	// A clock a thousand times slower than real time: what the tests do between polls happens within one AWeber second.
	const bed = useTestbed({ timeScale: 0.001, rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
	const cursorOf = (runner: ReturnType<typeof pollTrigger>) => runner.workflow.nodeStaticData.cursor as IDataObject & { ids: string[] };

	it('activated a minute after an import of 10,000 in one second: counts it in a few requests, then idle polls cost 2', async () => {
		const { empty } = bed.sandbox.seed.lists;
		importInOneSecond(bed, empty, 10_000, 'import');
		bed.sandbox.clock.advance(SETTLE_SANDBOX_MS);
		const runner = pollTrigger(bed, empty);
		const activation = await measuredPoll(bed, runner);
		expect(activation.items).toBe(0);
		// The first page, then a gallop and a bisection to the second's end, 7 probes each (10,000 / 100 pages: about
		// 2^7): 15 requests where reading the second costs 112 (and earlier versions stopped at 100, warning).
		expect(activation.calls).toBeLessThanOrEqual(15);
		expect(cursorOf(runner)).toMatchObject({ count: 10_000 });
		expect(cursorOf(runner).ids.length).toBeLessThanOrEqual(1000);
		const stored = JSON.stringify(runner.workflow.nodeStaticData);
		for (let poll = 0; poll < 3; poll++) expect(await measuredPoll(bed, runner)).toEqual({ calls: 2, items: 0 });
		expect(JSON.stringify(runner.workflow.nodeStaticData)).toBe(stored);
		const later = await addSubscribers(bed, empty, 1, 'later');
		const token = bed.sandbox.issueToken().access_token;
		bed.sandbox.clearRequests();
		expect(emailsOf(await runner.poll())).toEqual(later);
		expect(bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'))).toHaveLength(2);
		// The new subscriber's second is recent (not yet counted): the first page holds it and the import's first entry.
		expect(await measuredPoll(bed, runner)).toEqual({ calls: 1, items: 0 });
		expect((await call(bed.sandbox, 'GET', listPath(bed.sandbox, empty), { token })).json().total_subscribers).toBe(10_001);
	});

	it('watching during an import of 10,000 in one second: each fires once, and once the second is settled idle polls cost 2', async () => {
		const { customers } = bed.sandbox.seed.lists;
		const runner = pollTrigger(bed, customers);
		expect(await runner.poll()).toBeNull();
		const imported = importInOneSecond(bed, customers, 10_000, 'import');
		const emitted: string[] = [];
		for (let poll = 0; poll < 12; poll++) {
			const items = await runner.poll();
			if (items === null) break;
			expect(items.length).toBeLessThanOrEqual(1000);
			emitted.push(...emailsOf(items));
		}
		expect(emitted.sort()).toEqual([...imported].sort());
		// What a poll stored while the second was recent is the shape earlier versions stored: a time and every id of it.
		expect(cursorOf(runner)).not.toHaveProperty('count');
		expect(cursorOf(runner).ids).toHaveLength(10_000);

		bed.sandbox.clock.advance(SETTLE_SANDBOX_MS);
		// The first poll of a settled second reads it in full once more and counts it; from then on it is checked.
		expect((await measuredPoll(bed, runner)).items).toBe(0);
		expect(cursorOf(runner)).toMatchObject({ count: 10_000 });
		expect(cursorOf(runner).ids).toHaveLength(1000);
		expect(await measuredPoll(bed, runner)).toEqual({ calls: 2, items: 0 });

		// One of that second deleted: the check fails, the second is read in full, nothing fires, the count follows.
		const token = bed.sandbox.issueToken().access_token;
		const subscribers = `${listPath(bed.sandbox, customers)}/subscribers`;
		const gone = (await call(bed.sandbox, 'GET', subscribers, { token, query: { 'ws.op': 'find', email: imported[5000] } })).json().entries[0];
		expect((await call(bed.sandbox, 'DELETE', `${subscribers}/${gone.id}`, { token })).status).toBe(200);
		expect((await measuredPoll(bed, runner)).items).toBe(0);
		expect(cursorOf(runner)).toMatchObject({ count: 9_999 });
		expect(await measuredPoll(bed, runner)).toEqual({ calls: 2, items: 0 });
		const later = await addSubscribers(bed, customers, 3, 'later', 1000);
		expect(emailsOf(await runner.poll())).toEqual(later);
		expect(await runner.poll()).toBeNull();
	});

	it('drains a backlog of 1,500 in at most 1.05 times the least a read from the newest entry can cost', async () => {
		const { customers } = bed.sandbox.seed.lists;
		const runner = pollTrigger(bed, customers);
		const activation = await measuredPoll(bed, runner);
		// Sign-ups a second apart, as a busy form makes them.
		const added = await addSubscribers(bed, customers, 1500, 'backlog', 1000);
		bed.sandbox.clock.advance(SETTLE_SANDBOX_MS);
		const polls = [activation];
		const emitted: string[] = [];
		for (let poll = 0; poll < 5; poll++) {
			bed.sandbox.clearRequests();
			const items = await runner.poll();
			polls.push({ calls: bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/')).length, items: items?.length ?? 0 });
			if (items === null) break;
			emitted.push(...emailsOf(items));
		}
		expect(emitted.sort()).toEqual([...added].sort());
		expect(polls.map((poll) => poll.items)).toEqual([0, 1000, 500, 0]);
		// The least: each poll reads from the newest entry every entry newer than its cursor and one older, in pages of
		// 100: activation 1, then ceil(1,501 / 100) = 16, ceil(501 / 100) = 6, and 1 for the idle poll.
		const least = 1 + 16 + 6 + 1;
		const calls = polls.reduce((sum, poll) => sum + poll.calls, 0);
		expect(polls.map((poll) => poll.calls)).toEqual([1, 17, 6, 1]);
		expect(calls / least).toBeLessThanOrEqual(1.05);
	});
});
