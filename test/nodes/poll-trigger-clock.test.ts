// The AWeber Polling Trigger on an n8n host whose clock trails AWeber's by more than the skew it allows (10 minutes),
// when one answer's Date is stale (a proxy's cached answer): the stored position stays where AWeber's own times put
// it, so nothing fires twice, and the subscribers the poll could not place fire on the next poll.
import { recordNodeLogs } from '../harness/nodeLogs';
import { useTestbed } from '../harness/aweber';
import { listPath } from '../sandbox/api-test-client';
import { addSubscribers, emailsOf, pollTrigger, pollUntilIdle, UNLIMITED } from './poll-trigger.helpers';

describe('AWeber Polling Trigger on a host whose clock trails AWeber', () => {
	const bed = useTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
	const subscribersPath = (listId: number) => `/1.0${listPath(bed.sandbox, listId)}/subscribers`;

	it('with AWeber two hours ahead, one answer dated in 1970 fires nothing twice and skips nothing', async () => {
		const { empty } = bed.sandbox.seed.lists;
		// AWeber's clock (the sandbox's) two hours ahead of this machine's.
		bed.sandbox.clock.advance(2 * 3600_000);
		const runner = pollTrigger(bed, empty);
		await runner.poll();
		const first = await addSubscribers(bed, empty, 3, 'first', 1000);
		expect(emailsOf(await runner.poll())).toEqual(first.sort());
		const cursor = runner.workflow.nodeStaticData.cursor;

		const logs = recordNodeLogs();
		try {
			bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: subscribersPath(empty), rewrite: { date: new Date(0).toUTCString() } });
			expect(await runner.poll()).toBeNull();
			expect(logs.lines).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'warn', message: expect.stringMatching(/set aside the date of AWeber's answer/) })]));
		} finally {
			logs.restore();
		}
		expect(runner.workflow.nodeStaticData.cursor).toEqual(cursor);
		expect(await runner.poll()).toBeNull();
		const later = await addSubscribers(bed, empty, 2, 'later', 1000);
		expect(emailsOf(await pollUntilIdle(runner))).toEqual(later.sort());
	});
});
