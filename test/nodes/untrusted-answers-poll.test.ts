// The AWeber Polling Trigger against answers AWeber never promised: a page without `entries`, a timestamp far in the future,
// a stored cursor far in the future, an ID too long. Nothing is lost, nothing replayed, the trigger never goes silent.
import type { IDataObject } from 'n8n-workflow';

import { PAGE_OVERLAP } from '../../nodes/AWeberListTrigger/eventCursor';
import { useTestbed } from '../harness/aweber';
import { listPath } from '../sandbox/api-test-client';
import { UNLIMITED, addSubscribers, emailsOf, loggedDuring, pollTrigger, triggerWarning } from './poll-trigger.helpers';

describe('AWeber Polling Trigger with answers AWeber did not promise', () => {
	const bed = useTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });

	const apiCalls = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));
	const subscribersPath = (listId: number) => `/1.0${listPath(bed.sandbox, listId)}/subscribers`;

	it('a page without entries fails the poll and leaves the cursor: the next poll emits all 150 new subscribers', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = pollTrigger(bed, empty);
		await runner.poll();
		const cursor = runner.workflow.nodeStaticData.cursor;
		const added = await addSubscribers(bed, empty, 150, 'gap');
		// The second page read (it overlaps the first by PAGE_OVERLAP entries).
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { dropEntries: true }, pathPrefix: subscribersPath(empty), query: { 'ws.start': String(100 - PAGE_OVERLAP) } });
		await expect(runner.poll()).rejects.toThrow("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(runner.workflow.nodeStaticData.cursor).toEqual(cursor);
		expect(emailsOf(await runner.poll())).toEqual([...added].sort());
		expect(await runner.poll()).toBeNull();
	});

	it('an activation answered without entries stores no cursor, so existing subscribers are never replayed', async () => {
		const runner = pollTrigger(bed, bed.sandbox.seed.lists.newsletter);
		bed.sandbox.faults.next(1, 'answer', { body: { status: 'ok' }, pathPrefix: subscribersPath(bed.sandbox.seed.lists.newsletter) });
		await expect(runner.poll()).rejects.toThrow("AWeber's answer was unexpected");
		expect(runner.workflow.nodeStaticData.cursor).toBeUndefined();
		expect(await runner.poll()).toBeNull();
		const added = await addSubscribers(bed, bed.sandbox.seed.lists.newsletter, 2, 'after');
		expect(emailsOf(await runner.poll())).toEqual(added.sort());
	});

	it('an entry dated 2999 is left out, the cursor stays in AWeber\'s now, and no event is lost', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = pollTrigger(bed, empty);
		await runner.poll();
		const first = await addSubscribers(bed, empty, 3, 'early');
		// The newest entry of the next page read claims a time far in the future.
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { firstEntry: { subscribed_at: '2999-01-01T00:00:00+00:00' } }, pathPrefix: subscribersPath(empty) });
		const polled = await runner.poll();
		expect(polled).toHaveLength(2);
		expect((runner.workflow.nodeStaticData.cursor as { time: number }).time).toBeLessThan(Date.parse('2999-01-01T00:00:00Z'));
		const later = await addSubscribers(bed, empty, 2, 'later');
		const next = await runner.poll();
		expect(emailsOf([...(polled ?? []), ...(next ?? [])])).toEqual([...first, ...later].sort());
	});

	it('a stored cursor dated 3000 is brought back to AWeber\'s now, and new subscribers are emitted again', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = pollTrigger(bed, empty);
		await runner.poll();
		const key = `node:${runner.workflow.node.name}`;
		const stored = runner.workflow.staticData[key] as IDataObject;
		runner.workflow.staticData[key] = { ...stored, cursor: { time: Date.parse('3000-01-01T00:00:00Z'), ids: [] } };
		const lines = await loggedDuring(async () => expect(await runner.poll()).toBeNull());
		const future = /^AWeber Polling Trigger: the stored position 3000-01-01T00:00:00\.000Z is ahead of AWeber's clock \(\d{4}-\d\d-\d\dT[\d:.]+Z\); watching again from AWeber's now$/;
		expect(lines).toEqual([triggerWarning(runner, future)]);
		expect((runner.workflow.nodeStaticData.cursor as { time: number }).time).toBeLessThan(Date.parse('3000-01-01T00:00:00Z'));
		const added = await addSubscribers(bed, empty, 2, 'back');
		expect(emailsOf(await runner.poll())).toEqual(added.sort());
	});

	it('refuses a 30-digit list ID before any request', async () => {
		await expect(pollTrigger(bed, '9'.repeat(30)).poll()).rejects.toThrow(/^The "List" field must be a numeric AWeber ID, at most 20 digits long/);
		expect(apiCalls()).toEqual([]);
	});
});
