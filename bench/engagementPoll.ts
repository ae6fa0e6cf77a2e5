// The AWeber Polling Trigger's Broadcast Opened and Link Clicked: AWeber calls per poll with 3 broadcasts in the window
// (idle, and with new clicks to read), and with one chosen broadcast. Calls are counted in the sandbox's request log, so
// the figure does not depend on the machine: the sandbox runs in this process (`BENCH_ENGAGE_ONLY=1 npm run bench`).
import type { IDataObject } from 'n8n-workflow';

import { startTestbed, type AweberTestbed } from '../test/harness/aweber';
import { PollRunner } from '../test/harness/poll';
import { call, listPath } from '../test/sandbox/api-test-client';
import { log, median } from './lib';

/** Idle polls measured; the figure is their median (every one should be the same). */
const IDLE_POLLS = 5;
/** New clicks between two polls in the busy case: spread over the 3 broadcasts, several pages each. */
const NEW_CLICKS = 600;

export interface EngagementPollFigures {
	broadcastsInWindow: number;
	activationCalls: number;
	idleCallsPerPoll: number[];
	idleCallsMedian: number;
	/** The poll after the clicks and the next one (a skipped broadcast's clicks come one poll later). */
	busyPoll: { newClicks: number; emitted: number; calls: number };
	chosenBroadcastIdleCalls: number;
}

const locator = (value: number) => ({ __rl: true, mode: 'id', value: String(value) });

async function sendBroadcast(bed: AweberTestbed, listId: number, subject: string): Promise<number> {
	const token = bed.sandbox.issueToken().access_token;
	const path = `${listPath(bed.sandbox, listId)}/broadcasts`;
	const id = (await call(bed.sandbox, 'POST', path, { token, form: { subject, body_html: `<p>${subject}</p>` } })).json().broadcast_id as number;
	await call(bed.sandbox, 'POST', `${path}/${id}/schedule`, { token, form: { scheduled_for: new Date(bed.sandbox.clock.now()).toISOString() } });
	bed.sandbox.clock.advance(1_000);
	return id;
}

async function recipients(bed: AweberTestbed, listId: number): Promise<number[]> {
	const token = bed.sandbox.issueToken().access_token;
	const answer = await call(bed.sandbox, 'GET', `${listPath(bed.sandbox, listId)}/subscribers`, { token, query: { 'ws.op': 'find', status: 'subscribed' } });
	return answer.json().entries.map((entry: IDataObject) => entry.id as number);
}

function trigger(bed: AweberTestbed, listId: number, parameters: IDataObject): PollRunner {
	return new PollRunner(bed.harness, {
		type: 'aWeberListTrigger',
		credentialId: bed.credentialId,
		parameters: { accountId: locator(bed.sandbox.seed.accountId), listId: locator(listId), ...parameters },
	});
}

async function callsOf(bed: AweberTestbed, poll: () => Promise<unknown>): Promise<number> {
	bed.sandbox.clearRequests();
	await poll();
	return bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/')).length;
}

export async function benchEngagementPoll(): Promise<{ figures: EngagementPollFigures; targets: Record<string, { target: string; value: string; met: boolean | null }> }> {
	const bed = await startTestbed({ rateLimit: { requestsPerWindow: 1_000_000, windowSeconds: 60, lockoutSeconds: 60 }, credential: { rateLimitRequests: 1_000_000 } });
	try {
		const listId = bed.sandbox.seed.lists.newsletter;
		const broadcasts = [];
		for (const subject of ['Monday news', 'Wednesday offer', 'Friday digest']) broadcasts.push(await sendBroadcast(bed, listId, subject));
		const people = await recipients(bed, listId);
		const runner = trigger(bed, listId, { event: 'linkClicked', options: { maxEventsPerPoll: 10_000 } });
		const activationCalls = await callsOf(bed, async () => await runner.poll());
		const idleCallsPerPoll: number[] = [];
		for (let poll = 0; poll < IDLE_POLLS; poll++) idleCallsPerPoll.push(await callsOf(bed, async () => await runner.poll()));

		for (let click = 0; click < NEW_CLICKS; click++) {
			bed.sandbox.activity.click(broadcasts[click % broadcasts.length], people[click % people.length], `https://example.com/page/${click % 7}`);
		}
		// One broadcast's read is skipped each poll, so the busy poll and the one after it read all the new clicks.
		let emitted = 0;
		const busyCalls =
			(await callsOf(bed, async () => {
				emitted += (await runner.poll())?.length ?? 0;
			})) +
			(await callsOf(bed, async () => {
				emitted += (await runner.poll())?.length ?? 0;
			}));

		const chosen = trigger(bed, listId, { event: 'broadcastOpened', broadcastScope: 'chosen', broadcastId: locator(broadcasts[0]) });
		await chosen.poll();
		const chosenBroadcastIdleCalls = await callsOf(bed, async () => await chosen.poll());

		const figures: EngagementPollFigures = {
			broadcastsInWindow: broadcasts.length,
			activationCalls,
			idleCallsPerPoll,
			idleCallsMedian: median(idleCallsPerPoll),
			busyPoll: { newClicks: NEW_CLICKS, emitted, calls: busyCalls },
			chosenBroadcastIdleCalls,
		};
		log(`engagement poll: ${JSON.stringify(figures)}`);
		// At most one call per broadcast in the window: the window look-up takes one broadcast's turn each poll.
		const limit = broadcasts.length;
		return {
			figures,
			targets: {
				'pollTrigger.engagement.callsPerIdlePoll3Broadcasts': {
					target: `≤ ${limit} (at most 1 per broadcast in the window; the look-up takes a broadcast's turn in rotation)`,
					value: `${figures.idleCallsMedian} (busy: ${busyCalls} calls over 2 polls for ${NEW_CLICKS} new clicks, ${emitted} emitted; one chosen broadcast: ${chosenBroadcastIdleCalls})`,
					met: figures.idleCallsMedian <= limit && emitted === NEW_CLICKS,
				},
			},
		};
	} finally {
		await bed.stop();
	}
}
