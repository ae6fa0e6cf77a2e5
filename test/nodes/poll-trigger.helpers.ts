// What the AWeber Polling Trigger's tests share: the trigger on a testbed, subscribers added through AWeber's API,
// polls until the trigger runs out of events.
import type { IDataObject } from 'n8n-workflow';

import type { AweberTestbed } from '../harness/aweber';
import { recordNodeLogs, type LoggedLine } from '../harness/nodeLogs';
import { PollRunner } from '../harness/poll';
import { call, listPath } from '../sandbox/api-test-client';
import type { RateLimitOptions } from '../sandbox/types';

/** The tests add subscribers by the hundred; AWeber's own limit is covered by the transport's tests. */
export const UNLIMITED: RateLimitOptions = { requestsPerWindow: 1_000_000, windowSeconds: 60, lockoutSeconds: 60 };

export const emailsOf = (items: IDataObject[] | null) => (items ?? []).map((item) => item.email as string).sort();
export const locator = (id: number | string) => ({ __rl: true, mode: 'id', value: String(id) });

export function pollTrigger(bed: AweberTestbed, listId: number | string, event = 'subscriberAdded', options: IDataObject = {}): PollRunner {
	return new PollRunner(bed.harness, {
		type: 'aWeberListTrigger',
		credentialId: bed.credentialId,
		parameters: { event, accountId: locator(bed.sandbox.seed.accountId), listId: locator(listId), options },
	});
}

/** The trigger after its first poll: watching from now. */
export async function watchingTrigger(bed: AweberTestbed, listId: number, event = 'subscriberAdded', options: IDataObject = {}): Promise<PollRunner> {
	const runner = pollTrigger(bed, listId, event, options);
	expect(await runner.poll()).toBeNull();
	return runner;
}

/** Adds subscribers through AWeber's API, `stepMs` of sandbox time apart (0: as fast as they go). */
export async function addSubscribers(bed: AweberTestbed, listId: number, count: number, prefix: string, stepMs = 0): Promise<string[]> {
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
export async function pollUntilIdle(runner: PollRunner): Promise<IDataObject[]> {
	const emitted: IDataObject[] = [];
	for (let attempt = 0; attempt < 20; attempt++) {
		const items = await runner.poll();
		if (items === null) return emitted;
		emitted.push(...items);
	}
	throw new Error('The trigger never ran out of events');
}

/** What n8n's log holds of what `act` did. */
export async function loggedDuring(act: () => Promise<unknown>): Promise<LoggedLine[]> {
	const logs = recordNodeLogs();
	try {
		await act();
		return logs.lines;
	} finally {
		logs.restore();
	}
}

/** A warning of the trigger in n8n's log, as the node logs it: its name and the node's. */
export const triggerWarning = (runner: PollRunner, message: string | RegExp): LoggedLine => ({
	level: 'warn',
	message: typeof message === 'string' ? `AWeber Polling Trigger: ${message}` : (expect.stringMatching(message) as string),
	metadata: { node: runner.workflow.node.name },
});
