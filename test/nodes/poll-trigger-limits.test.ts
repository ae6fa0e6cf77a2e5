// The AWeber Polling Trigger's poll at its limits (nodes/AWeberListTrigger/pollEvents.ts): Max Events per Poll that is
// no whole number, n8n's poll budget at activation and mid-poll, the newest second at activation spanning more pages
// than the first poll reads, the collection changing under a read.
// docs/triggers.md, "AWeber Polling Trigger".
import { startTestbed, useTestbed } from '../harness/aweber';
import { hasPollBudget } from '../harness/n8nVersion';
import { call, listPath } from '../sandbox/api-test-client';
import { addSubscribers, emailsOf, loggedDuring, pollTrigger, watchingTrigger, pollUntilIdle, triggerWarning, UNLIMITED } from './poll-trigger.helpers';

describe('AWeber Polling Trigger at its limits', () => {
	const bed = useTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });

	const subscribersPath = (listId: number) => `/1.0${listPath(bed.sandbox, listId)}/subscribers`;

	it('emits at most the whole number below a Max Events per Poll of 2.5', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty, 'subscriberAdded', { maxEventsPerPoll: 2.5 });
		const added = await addSubscribers(bed, empty, 5, 'two-and-a-half', 1000);
		const polls = [await runner.poll(), await runner.poll(), await runner.poll(), await runner.poll()];
		expect(polls.map(emailsOf)).toEqual([added.slice(0, 2), added.slice(2, 4), added.slice(4), []]);
	});

	// n8n 1.x gives poll triggers no time budget.
	(hasPollBudget ? it : it.skip)('stops at half of the poll budget, keeping its cursor, and emits on the next poll', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		const cursor = runner.workflow.nodeStaticData.cursor;
		const added = await addSubscribers(bed, empty, 3, 'half-budget', 1000);
		// The first answer takes 1.2 s of a 2 s budget: past its half, well before the budget itself.
		bed.sandbox.faults.next(1, 'slow', { delayMs: 1200, method: 'GET', pathPrefix: subscribersPath(empty) });
		expect(await runner.poll({ pollBudgetMs: 2000 })).toBeNull();
		expect(runner.workflow.nodeStaticData.cursor).toEqual(cursor);
		expect(emailsOf(await runner.poll())).toEqual(added);
	});

	(hasPollBudget ? it : it.skip)('stores no position when the activation runs out of budget, and starts on the next poll', async () => {
		const { customers } = bed.sandbox.seed.lists;
		const runner = pollTrigger(bed, customers);
		expect(await runner.poll({ pollBudgetMs: 0 })).toBeNull();
		expect(runner.workflow.nodeStaticData.cursor).toBeUndefined();
		expect(await runner.poll()).toBeNull();
		const added = await addSubscribers(bed, customers, 2, 'after-budget', 1000);
		expect(emailsOf(await runner.poll())).toEqual(added);
	});

	it('reads at most 100 pages of the newest second at activation, and says that later entries of it may fire', async () => {
		// A clock a thousand times slower than real time: the import below happens within one AWeber second.
		const slow = await startTestbed({ timeScale: 0.001, rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
		try {
			const { empty } = slow.sandbox.seed.lists;
			// Pages of 11 entries, overlapping by 10: each page read goes one entry further; 120 entries need 110 pages.
			slow.sandbox.pages.cap(11);
			// Just past the start of a second, so that the import cannot straddle two.
			slow.sandbox.clock.advance(1001 - (slow.sandbox.clock.now() % 1000));
			await addSubscribers(slow, empty, 120, 'import');
			slow.sandbox.clearRequests();
			const runner = pollTrigger(slow, empty);
			const lines = await loggedDuring(async () => expect(await runner.poll()).toBeNull());
			const incomplete = 'more than 100 pages of entries share the newest second at activation; later entries of that second may fire as new';
			expect(lines).toEqual([triggerWarning(runner, incomplete)]);
			expect(slow.sandbox.requests().filter((entry) => entry.method === 'GET')).toHaveLength(100);
			expect(runner.workflow.nodeStaticData.cursor).toMatchObject({ time: expect.any(Number) });
		} finally {
			await slow.stop();
		}
	});

	it('emits nothing and keeps its cursor when more entries vanish between two page reads than the pages overlap', async () => {
		// Customers is a single opt-in list: its subscribers can be deleted.
		const { customers } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, customers);
		const cursor = runner.workflow.nodeStaticData.cursor;
		// Pages of 20: 25 new subscribers take two reads, the second from entry 10.
		bed.sandbox.pages.cap(20);
		const added = await addSubscribers(bed, customers, 25, 'vanishing', 1000);
		const token = bed.sandbox.issueToken().access_token;
		const subscribers = `${listPath(bed.sandbox, customers)}/subscribers`;
		const newest = (await call(bed.sandbox, 'GET', subscribers, { token, query: { 'ws.op': 'find', sort_key: 'subscribed_at', sort_order: 'desc' } })).json()
			.entries as Array<{ id: number; email: string }>;
		const vanishing = newest.slice(0, 11);
		// The 11 newest are deleted after the poll read the first page, before it reads the next.
		bed.sandbox.faults.next(1, 'rewrite', {
			method: 'GET',
			pathPrefix: subscribersPath(customers),
			query: { 'ws.start': '10' },
			rewrite: {},
			beforeAnswer: async () => {
				for (const { id } of vanishing) expect((await call(bed.sandbox, 'DELETE', `${subscribers}/${id}`, { token })).status).toBe(200);
			},
		});

		const lines = await loggedDuring(async () => expect(await runner.poll()).toBeNull());
		const broken = 'the collection changed under the read more than its page overlap covers; nothing was emitted, the next poll reads again';
		expect(lines).toEqual([triggerWarning(runner, broken)]);
		expect(runner.workflow.nodeStaticData.cursor).toEqual(cursor);
		const gone = new Set(vanishing.map((entry) => entry.email));
		expect(emailsOf(await pollUntilIdle(runner))).toEqual(added.filter((email) => !gone.has(email)).sort());
	});
});
