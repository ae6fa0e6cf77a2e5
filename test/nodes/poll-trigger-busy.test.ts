// The AWeber Polling Trigger on a busy account, or with answers slightly off: an import in one second at activation, a
// subscriber deleted between two page reads, one answer's Date far behind, a stored position that is no time.
// Nothing already there fires, nothing new is skipped, nothing fires twice, the trigger never gets stuck.
import type { IDataObject } from 'n8n-workflow';

import { startTestbed, useTestbed, type AweberTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { PollRunner } from '../harness/poll';
import { call, listPath } from '../sandbox/api-test-client';
import type { RateLimitOptions } from '../sandbox/types';

const UNLIMITED: RateLimitOptions = { requestsPerWindow: 1_000_000, windowSeconds: 60, lockoutSeconds: 60 };

const emailsOf = (items: IDataObject[] | null) => (items ?? []).map((item) => item.email as string).sort();
const locator = (id: number | string) => ({ __rl: true, mode: 'id', value: String(id) });

function trigger(bed: AweberTestbed, listId: number): PollRunner {
	return new PollRunner(bed.harness, {
		type: 'aWeberListTrigger',
		credentialId: bed.credentialId,
		parameters: { event: 'subscriberAdded', accountId: locator(bed.sandbox.seed.accountId), listId: locator(listId) },
	});
}

/** Adds subscribers through AWeber's API, `stepMs` of sandbox time apart (0: as fast as they go). */
async function addSubscribers(bed: AweberTestbed, listId: number, count: number, prefix: string, stepMs = 0): Promise<string[]> {
	const token = bed.sandbox.issueToken().access_token;
	const emails: string[] = [];
	for (let index = 0; index < count; index++) {
		const email = `${prefix}.${index}@example.com`;
		const response = await call(bed.sandbox, 'POST', `${listPath(bed.sandbox, listId)}/subscribers`, { token, json: { email } });
		expect(response.status).toBe(201);
		emails.push(email);
		if (stepMs > 0) bed.sandbox.clock.advance(stepMs);
	}
	return emails;
}

/** Polls until a poll emits nothing; every item emitted. */
async function pollUntilIdle(runner: PollRunner): Promise<IDataObject[]> {
	const emitted: IDataObject[] = [];
	for (let attempt = 0; attempt < 20; attempt++) {
		const items = await runner.poll();
		if (items === null) return emitted;
		emitted.push(...items);
	}
	throw new Error('The trigger never ran out of events');
}

describe('AWeber Polling Trigger on a busy account', () => {
	const bed = useTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });

	const subscribersPath = (listId: number) => `/1.0${listPath(bed.sandbox, listId)}/subscribers`;

	it('activated after an import of 150 in one second, fires none of them, and fires the next subscriber', async () => {
		// A clock a thousand times slower than real time: the import below happens within one AWeber second.
		const slow = await startTestbed({ timeScale: 0.001, rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
		try {
			const { empty } = slow.sandbox.seed.lists;
			await addSubscribers(slow, empty, 150, 'import');
			const runner = trigger(slow, empty);
			expect(await runner.poll()).toBeNull();
			expect(await runner.poll()).toBeNull();
			const later = await addSubscribers(slow, empty, 1, 'later');
			expect(emailsOf(await pollUntilIdle(runner))).toEqual(later);
		} finally {
			await slow.stop();
		}
	});

	it('fires every new subscriber once when one is deleted between two page reads of a poll', async () => {
		// Customers is a single opt-in list: its subscribers can be deleted.
		const { customers } = bed.sandbox.seed.lists;
		const runner = trigger(bed, customers);
		await runner.poll();
		const added = await addSubscribers(bed, customers, 150, 'arrival', 1000);
		// The newest arrival is deleted after the poll read the first page, before it reads the next.
		const token = bed.sandbox.issueToken().access_token;
		const subscribers = `${listPath(bed.sandbox, customers)}/subscribers`;
		const newest = (await call(bed.sandbox, 'GET', subscribers, { token, query: { 'ws.op': 'find', email: added[149] } })).json().entries[0];
		const deletions: number[] = [];
		let reads = 0;
		bed.sandbox.faults.next(2, 'rewrite', {
			method: 'GET',
			pathPrefix: subscribersPath(customers),
			rewrite: {},
			beforeAnswer: async () => {
				if (++reads !== 2) return;
				deletions.push((await call(bed.sandbox, 'DELETE', `${subscribers}/${newest.id}`, { token })).status);
			},
		});

		const emitted = emailsOf(await pollUntilIdle(runner));
		expect(deletions).toEqual([200]);
		// Every subscriber still there fired (the deleted one fired before it was deleted), each once.
		expect(emitted).toEqual([...added].sort());
	});

	it.each([
		['an hour behind', (now: number) => new Date(now - 3600_000).toUTCString()],
		['in 1970', () => new Date(0).toUTCString()],
	])('one answer dated %s does not move the stored position back: nothing fires twice', async (_name, date) => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = trigger(bed, empty);
		await runner.poll();
		const first = await addSubscribers(bed, empty, 3, 'first', 1000);
		expect(emailsOf(await runner.poll())).toEqual(first.sort());
		bed.sandbox.clock.advance(60_000);

		const logs = recordNodeLogs();
		try {
			bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: subscribersPath(empty), rewrite: { date: date(bed.sandbox.clock.now()) } });
			expect(await runner.poll()).toBeNull();
			expect(logs.lines).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'warn', message: expect.stringMatching(/set aside the date of AWeber's answer/) })]));
		} finally {
			logs.restore();
		}
		expect(await runner.poll()).toBeNull();
		const later = await addSubscribers(bed, empty, 2, 'later', 1000);
		expect(emailsOf(await pollUntilIdle(runner))).toEqual(later.sort());
	});

	it.each([
		['at a huge number', { time: 1e300, ids: [] }],
		['at no number', { time: 'soon', ids: [] }],
		['at a date past JavaScript\'s last', { time: 9e15, ids: [] }],
		['that is null', null],
	])('a stored position %s is replaced by a fresh start with a warning, and the trigger goes on', async (_name, cursor) => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = trigger(bed, empty);
		await runner.poll();
		const key = `node:${runner.workflow.node.name}`;
		runner.workflow.staticData[key] = { ...(runner.workflow.staticData[key] as IDataObject), cursor };

		const logs = recordNodeLogs();
		try {
			expect(await runner.poll()).toBeNull();
			expect(logs.lines).toEqual([expect.objectContaining({ level: 'warn', message: expect.stringMatching(/stored position .* is not a usable position; watching again from now/) })]);
		} finally {
			logs.restore();
		}
		const added = await addSubscribers(bed, empty, 2, 'after', 1000);
		expect(emailsOf(await pollUntilIdle(runner))).toEqual(added.sort());
	});
});
