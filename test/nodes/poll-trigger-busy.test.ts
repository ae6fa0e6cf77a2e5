// The AWeber Polling Trigger on a busy account, or with answers slightly off: an import in one second at activation, a
// subscriber deleted between two page reads, one answer's Date far behind, a stored position that is no time.
// Nothing already there fires, nothing new is skipped, nothing fires twice, the trigger never gets stuck.
import type { IDataObject } from 'n8n-workflow';

import { startTestbed, useTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { call, listPath } from '../sandbox/api-test-client';
import { addSubscribers, emailsOf, loggedDuring, pollTrigger as trigger, pollUntilIdle, triggerWarning, UNLIMITED } from './poll-trigger.helpers';

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
			// Dated against this machine's clock, which AWeber's follows (the sandbox's runs ahead by 59 s each second).
			bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: subscribersPath(empty), rewrite: { date: date(Date.now()) } });
			expect(await runner.poll()).toBeNull();
			expect(logs.lines).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'warn', message: expect.stringMatching(/set aside the date of AWeber's answer/) })]));
		} finally {
			logs.restore();
		}
		expect(await runner.poll()).toBeNull();
		const later = await addSubscribers(bed, empty, 2, 'later', 1000);
		expect(emailsOf(await pollUntilIdle(runner))).toEqual(later.sort());
	});

	const longIds = Array.from({ length: 20 }, (_, index) => `subscriber-${index}`);
	it.each([
		['at a huge number', { time: 1e300, ids: [] }, '{"time":1e+300,"ids":[]}'],
		['at no number', { time: 'soon', ids: [] }, '{"time":"soon","ids":[]}'],
		['at a date past JavaScript\'s last', { time: 9e15, ids: [] }, '{"time":9000000000000000,"ids":[]}'],
		['that is null', null, 'null'],
		['that is missing', undefined, 'undefined'],
		['at no number, with a long list of ids (shown to its first 100 characters)', { time: 'soon', ids: longIds }, JSON.stringify({ time: 'soon', ids: longIds }).slice(0, 100)],
	])('a stored position %s is replaced by a fresh start with a warning, and the trigger goes on', async (_name, cursor, shown) => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = trigger(bed, empty);
		// The activation itself logs nothing; the poll after the position was broken warns once.
		const lines = await loggedDuring(async () => {
			await runner.poll();
			const key = `node:${runner.workflow.node.name}`;
			runner.workflow.staticData[key] = { ...(runner.workflow.staticData[key] as IDataObject), cursor };
			expect(await runner.poll()).toBeNull();
		});
		expect(lines).toEqual([triggerWarning(runner, `the stored position (${shown}) is not a usable position; watching again from now`)]);
		const added = await addSubscribers(bed, empty, 2, 'after', 1000);
		expect(emailsOf(await pollUntilIdle(runner))).toEqual(added.sort());
	});
});
