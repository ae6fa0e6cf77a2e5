import type { IDataObject } from 'n8n-workflow';

import { startTestbed, useTestbed } from '../harness/aweber';
import { PollRunner } from '../harness/poll';
import { call, listPath } from '../sandbox/api-test-client';
import { hasPollBudget } from '../harness/n8nVersion';
import { UNLIMITED, addSubscribers, emailsOf, locator, pollTrigger } from './poll-trigger.helpers';

type PollEvent = 'subscriberAdded' | 'subscriberUnsubscribed' | 'broadcastSent';

describe('AWeber Polling Trigger', () => {
	const bed = useTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
	// Tokens last an hour of sandbox time: a minute at the tests' 60x clock.
	const token = () => bed.sandbox.issueToken().access_token;

	const apiCalls = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));

	const trigger = (event: PollEvent, listId: number, options: IDataObject = {}) => pollTrigger(bed, listId, event, options);

	/** Polls until a poll emits nothing; returns what each poll emitted. */
	async function pollUntilIdle(runner: PollRunner, between?: () => Promise<void>): Promise<IDataObject[][]> {
		const polls: IDataObject[][] = [];
		for (let attempt = 0; attempt < 100; attempt++) {
			const items = await runner.poll();
			if (items === null) return polls;
			polls.push(items);
			await between?.();
		}
		throw new Error('The trigger never ran out of events');
	}

	const expectOldestFirst = (items: IDataObject[], field: string) => {
		const times = items.map((item) => Date.parse(item[field] as string));
		expect(times).toEqual([...times].sort((a, b) => a - b));
	};

	it('starts watching with one request and emits nothing that was already there', async () => {
		const runner = trigger('subscriberAdded', bed.sandbox.seed.lists.bulk);
		expect(await runner.poll()).toBeNull();
		expect(apiCalls()).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: `/1.0${listPath(bed.sandbox, bed.sandbox.seed.lists.bulk)}/subscribers`,
				query: expect.objectContaining({ 'ws.op': 'find', sort_key: 'subscribed_at', sort_order: 'desc', 'ws.start': '0' }),
			}),
		]);
		// The newest second is long past (AWeber's clock a minute beyond it): it is counted, and checked from now on.
		expect(runner.workflow.nodeStaticData.cursor).toEqual({ time: expect.any(Number), ids: [expect.any(String)], count: 1 });
	});

	it('makes exactly one request when nothing happened, and does not rewrite its static data', async () => {
		const runner = trigger('subscriberAdded', bed.sandbox.seed.lists.bulk);
		await runner.poll();
		const saves = runner.workflow.saves;
		bed.sandbox.clearRequests();
		expect(await runner.poll()).toBeNull();
		expect(apiCalls()).toHaveLength(1);
		expect(runner.workflow.saves).toBe(saves);
	});

	it('emits each of 1,000 subscribers added between polls exactly once, oldest first', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = trigger('subscriberAdded', empty);
		await runner.poll();
		const added = await addSubscribers(bed, empty, 1000, 'thousand');

		const polls = await pollUntilIdle(runner);
		const emitted = polls.flat();
		expect(emitted).toHaveLength(1000);
		expect(new Set(emailsOf(emitted))).toEqual(new Set(added));
		expectOldestFirst(emitted, 'subscribed_at');
		// Many of them share a second (1,000 adds in a few sandbox seconds): ties were emitted once each.
		expect(new Set(emitted.map((item) => item.subscribed_at)).size).toBeLessThan(1000);

		bed.sandbox.clearRequests();
		expect(await runner.poll()).toBeNull();
		expect(apiCalls()).toHaveLength(1);
	});

	it('drains a backlog larger than Max Events per Poll over several polls, oldest first, while more arrive', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = trigger('subscriberAdded', empty, { maxEventsPerPoll: 150 });
		await runner.poll();
		const added = await addSubscribers(bed, empty, 1000, 'backlog');
		let round = 0;
		const polls = await pollUntilIdle(runner, async () => {
			if (round < 5) added.push(...(await addSubscribers(bed, empty, 7, `late${round++}`)));
		});

		expect(polls.length).toBeGreaterThanOrEqual(Math.ceil(added.length / 150));
		expect(Math.max(...polls.map((items) => items.length))).toBeLessThanOrEqual(150);
		const emitted = polls.flat();
		expect(emailsOf(emitted).sort()).toEqual([...added].sort());
		expectOldestFirst(emitted, 'subscribed_at');
	});

	it('emits subscribers that share the cursor second exactly once', async () => {
		// A clock a thousand times slower than real time: everything below happens within one AWeber second.
		const slow = await startTestbed({ timeScale: 0.001, rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
		try {
			const slowToken = slow.sandbox.issueToken().access_token;
			const add = async (email: string) =>
				await call(slow.sandbox, 'POST', `${listPath(slow.sandbox, slow.sandbox.seed.lists.customers)}/subscribers`, { token: slowToken, json: { email } });
			const runner = new PollRunner(slow.harness, {
				type: 'aWeberListTrigger',
				credentialId: slow.credentialId,
				parameters: {
					event: 'subscriberAdded',
					accountId: locator(slow.sandbox.seed.accountId),
					listId: locator(slow.sandbox.seed.lists.customers),
				},
			});
			await runner.poll();
			await add('first@example.com');
			await add('second@example.com');
			const firstPoll = await runner.poll();
			await add('third@example.com');
			const secondPoll = await runner.poll();

			expect(emailsOf(firstPoll)).toEqual(['first@example.com', 'second@example.com']);
			expect(emailsOf(secondPoll)).toEqual(['third@example.com']);
			expect(secondPoll![0].subscribed_at).toBe(firstPoll![0].subscribed_at);
			expect(runner.workflow.nodeStaticData.cursor).toMatchObject({ ids: expect.arrayContaining([expect.any(String), expect.any(String), expect.any(String)]) });
			expect(await runner.poll()).toBeNull();
		} finally {
			await slow.stop();
		}
	});

	it('emits each unsubscribe once', async () => {
		const { newsletter } = bed.sandbox.seed.lists;
		const runner = trigger('subscriberUnsubscribed', newsletter);
		expect(await runner.poll()).toBeNull();
		const { subscribed } = bed.sandbox.seed.subscribers;
		const response = await call(bed.sandbox, 'PATCH', `${listPath(bed.sandbox, newsletter)}/subscribers/${subscribed}`, {
			token: token(),
			json: { status: 'unsubscribed' },
		});
		expect(response.status).toBe(209);

		const items = await runner.poll();
		expect(items).toEqual([expect.objectContaining({ id: subscribed, status: 'unsubscribed', unsubscribed_at: expect.any(String) })]);
		expect(bed.sandbox.requests().at(-1)?.query).toMatchObject({ 'ws.op': 'find', status: 'unsubscribed', sort_key: 'unsubscribed_at', sort_order: 'desc' });
		expect(await runner.poll()).toBeNull();
	});

	it('emits each broadcast once when it goes out', async () => {
		const { newsletter } = bed.sandbox.seed.lists;
		const { draft, scheduled } = bed.sandbox.seed.broadcasts;
		const runner = trigger('broadcastSent', newsletter);
		expect(await runner.poll()).toBeNull();

		const response = await call(bed.sandbox, 'POST', `${listPath(bed.sandbox, newsletter)}/broadcasts/${draft}/schedule`, {
			token: token(),
			form: { scheduled_for: new Date(bed.sandbox.clock.now()).toISOString() },
		});
		expect(response.status).toBe(200);
		bed.sandbox.clock.advance(1000);
		expect(await runner.poll()).toEqual([expect.objectContaining({ broadcast_id: draft, sent_at: expect.any(String) })]);
		expect(bed.sandbox.requests().at(-1)?.query).toMatchObject({ status: 'sent' });

		// The seeded scheduled broadcast goes out a week from now.
		bed.sandbox.clock.advance(8 * 24 * 3600 * 1000);
		expect(await runner.poll()).toEqual([expect.objectContaining({ broadcast_id: scheduled })]);
		expect(await runner.poll()).toBeNull();
	});

	it('returns the newest event as sample data in a manual run, leaving the cursor alone', async () => {
		const { customers } = bed.sandbox.seed.lists;
		const runner = trigger('subscriberAdded', customers);
		await runner.poll();
		const cursor = runner.workflow.nodeStaticData.cursor;
		await addSubscribers(bed, customers, 2, 'sample');

		bed.sandbox.clearRequests();
		expect(emailsOf(await runner.poll({ mode: 'manual' }))).toEqual([expect.stringMatching(/^sample\.[01]@example\.com$/)]);
		expect(apiCalls()).toEqual([expect.objectContaining({ query: expect.objectContaining({ 'ws.size': '1' }) })]);
		expect(runner.workflow.nodeStaticData.cursor).toEqual(cursor);
		expect(emailsOf(await runner.poll()).sort()).toEqual(['sample.0@example.com', 'sample.1@example.com']);
	});

	it('starts over when the list changes, instead of reading the new list from the old cursor', async () => {
		const { customers, newsletter } = bed.sandbox.seed.lists;
		const runner = trigger('subscriberAdded', customers);
		await runner.poll();
		runner.workflow.node.parameters.listId = locator(newsletter);
		expect(await runner.poll()).toBeNull();
		expect(runner.workflow.nodeStaticData.stream).toBe(`subscriberAdded:${bed.sandbox.seed.accountId}:${newsletter}`);
	});

	// n8n 1.x gives poll triggers no time budget.
	(hasPollBudget ? it : it.skip)('keeps its cursor when the poll budget runs out, and emits on the next poll', async () => {
		const { customers } = bed.sandbox.seed.lists;
		const runner = trigger('subscriberAdded', customers);
		await runner.poll();
		const added = await addSubscribers(bed, customers, 3, 'budget');
		expect(await runner.poll({ pollBudgetMs: 0 })).toBeNull();
		expect(emailsOf(await runner.poll()).sort()).toEqual(added.sort());
	});

	it('polls as on n8n 1.x, whose poll context has no time budget: bounded by Max Events only', async () => {
		const { customers } = bed.sandbox.seed.lists;
		const runner = trigger('subscriberAdded', customers);
		await runner.poll({ withoutPollBudget: true });
		const added = await addSubscribers(bed, customers, 3, 'no-budget');
		expect(emailsOf(await runner.poll({ withoutPollBudget: true })).sort()).toEqual(added.sort());
	});

	it('reports an unusable list before any request', async () => {
		const runner = trigger('subscriberAdded', 0);
		runner.workflow.node.parameters.listId = { __rl: true, mode: 'id', value: 'my list' };
		await expect(runner.poll()).rejects.toThrow('The "List" field must be a numeric AWeber ID, not "my list"');
		expect(apiCalls()).toEqual([]);
	});
});
