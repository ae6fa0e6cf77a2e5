// The AWeber Polling Trigger against answers AWeber never promised: a page without `entries`, a timestamp far in the future,
// a stored cursor far in the future, an ID too long. Nothing is lost, nothing replayed, the trigger never goes silent.
import type { IDataObject } from 'n8n-workflow';

import { PAGE_OVERLAP } from '../../nodes/AWeberListTrigger/eventCursor';
import { startTestbed, type AweberTestbed } from '../harness/aweber';
import { PollRunner } from '../harness/poll';
import { call, listPath } from '../sandbox/api-test-client';
import type { RateLimitOptions } from '../sandbox/types';
import { loggedDuring, triggerWarning } from './poll-trigger.helpers';

const UNLIMITED: RateLimitOptions = { requestsPerWindow: 1_000_000, windowSeconds: 60, lockoutSeconds: 60 };

const emailsOf = (items: IDataObject[] | null) => (items ?? []).map((item) => item.email as string).sort();

describe('AWeber Polling Trigger with answers AWeber did not promise', () => {
	let bed: AweberTestbed;
	let token: string;

	beforeAll(async () => {
		bed = await startTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
	});
	afterAll(async () => await bed.stop());
	beforeEach(() => {
		bed.sandbox.reset();
		bed.sandbox.clearRequests();
		token = bed.sandbox.issueToken().access_token;
	});

	const locator = (id: number | string) => ({ __rl: true, mode: 'id', value: String(id) });
	const apiCalls = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));
	const subscribersPath = (listId: number) => `/1.0${listPath(bed.sandbox, listId)}/subscribers`;

	function trigger(listId: number | string): PollRunner {
		return new PollRunner(bed.harness, {
			type: 'aWeberListTrigger',
			credentialId: bed.credentialId,
			parameters: { event: 'subscriberAdded', accountId: locator(bed.sandbox.seed.accountId), listId: locator(listId) },
		});
	}

	async function addSubscribers(listId: number, count: number, prefix: string): Promise<string[]> {
		const emails = Array.from({ length: count }, (_, index) => `${prefix}.${index}@example.com`);
		for (let start = 0; start < emails.length; start += 25) {
			await Promise.all(
				emails.slice(start, start + 25).map(async (email) => {
					const response = await call(bed.sandbox, 'POST', `${listPath(bed.sandbox, listId)}/subscribers`, { token, json: { email } });
					expect(response.status).toBe(201);
				}),
			);
		}
		return emails;
	}

	it('a page without entries fails the poll and leaves the cursor: the next poll emits all 150 new subscribers', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = trigger(empty);
		await runner.poll();
		const cursor = runner.workflow.nodeStaticData.cursor;
		const added = await addSubscribers(empty, 150, 'gap');
		// The second page read (it overlaps the first by PAGE_OVERLAP entries).
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { dropEntries: true }, pathPrefix: subscribersPath(empty), query: { 'ws.start': String(100 - PAGE_OVERLAP) } });
		await expect(runner.poll()).rejects.toThrow("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(runner.workflow.nodeStaticData.cursor).toEqual(cursor);
		expect(emailsOf(await runner.poll())).toEqual([...added].sort());
		expect(await runner.poll()).toBeNull();
	});

	it('an activation answered without entries stores no cursor, so existing subscribers are never replayed', async () => {
		const runner = trigger(bed.sandbox.seed.lists.newsletter);
		bed.sandbox.faults.next(1, 'answer', { body: { status: 'ok' }, pathPrefix: subscribersPath(bed.sandbox.seed.lists.newsletter) });
		await expect(runner.poll()).rejects.toThrow("AWeber's answer was unexpected");
		expect(runner.workflow.nodeStaticData.cursor).toBeUndefined();
		expect(await runner.poll()).toBeNull();
		const added = await addSubscribers(bed.sandbox.seed.lists.newsletter, 2, 'after');
		expect(emailsOf(await runner.poll())).toEqual(added.sort());
	});

	it('an entry dated 2999 is left out, the cursor stays in AWeber\'s now, and no event is lost', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = trigger(empty);
		await runner.poll();
		const first = await addSubscribers(empty, 3, 'early');
		// The newest entry of the next page read claims a time far in the future.
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { firstEntry: { subscribed_at: '2999-01-01T00:00:00+00:00' } }, pathPrefix: subscribersPath(empty) });
		const polled = await runner.poll();
		expect(polled).toHaveLength(2);
		expect((runner.workflow.nodeStaticData.cursor as { time: number }).time).toBeLessThan(Date.parse('2999-01-01T00:00:00Z'));
		const later = await addSubscribers(empty, 2, 'later');
		const next = await runner.poll();
		expect(emailsOf([...(polled ?? []), ...(next ?? [])])).toEqual([...first, ...later].sort());
	});

	it('a stored cursor dated 3000 is brought back to AWeber\'s now, and new subscribers are emitted again', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = trigger(empty);
		await runner.poll();
		const key = `node:${runner.workflow.node.name}`;
		const stored = runner.workflow.staticData[key] as IDataObject;
		runner.workflow.staticData[key] = { ...stored, cursor: { time: Date.parse('3000-01-01T00:00:00Z'), ids: [] } };
		const lines = await loggedDuring(async () => expect(await runner.poll()).toBeNull());
		const future = /^AWeber Polling Trigger: the stored position 3000-01-01T00:00:00\.000Z is ahead of AWeber's clock \(\d{4}-\d\d-\d\dT[\d:.]+Z\); watching again from AWeber's now$/;
		expect(lines).toEqual([triggerWarning(runner, future)]);
		expect((runner.workflow.nodeStaticData.cursor as { time: number }).time).toBeLessThan(Date.parse('3000-01-01T00:00:00Z'));
		const added = await addSubscribers(empty, 2, 'back');
		expect(emailsOf(await runner.poll())).toEqual(added.sort());
	});

	it('refuses a 30-digit list ID before any request', async () => {
		await expect(trigger('9'.repeat(30)).poll()).rejects.toThrow(/^The "List" field must be a numeric AWeber ID, at most 20 digits long/);
		expect(apiCalls()).toEqual([]);
	});
});
