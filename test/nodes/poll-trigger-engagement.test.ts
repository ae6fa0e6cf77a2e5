// The AWeber Polling Trigger's Broadcast Opened and Link Clicked: each open or click once, across pages and across a
// broadcast sent between polls; an idle poll's calls (at most one per broadcast in the window: the window look-up and
// the broadcasts' reads take turns, one skipped a poll); a skipped broadcast's events on the next poll; a stored
// position that forgets broadcasts leaving the window.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { call, listPath } from '../sandbox/api-test-client';
import type { PollRunner } from '../harness/poll';
import { UNLIMITED, pollTrigger } from './poll-trigger.helpers';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Polls until two polls in a row emit nothing: each poll skips one turn (the window look-up or one broadcast's read),
 * never the same twice running, so two polls read every watched broadcast at least once.
 */
async function pollUntilQuiet(runner: PollRunner): Promise<IDataObject[]> {
	const emitted: IDataObject[] = [];
	let quiet = 0;
	for (let poll = 0; poll < 20 && quiet < 2; poll++) {
		const items = await runner.poll();
		quiet = items === null ? quiet + 1 : 0;
		emitted.push(...(items ?? []));
	}
	if (quiet < 2) throw new Error('The trigger never ran out of events');
	return emitted;
}

describe('AWeber Polling Trigger: Broadcast Opened and Link Clicked', () => {
	const bed = useTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
	const token = () => bed.sandbox.issueToken().access_token;
	const newsletter = () => bed.sandbox.seed.lists.newsletter;
	const apiCalls = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));

	/** A broadcast created, scheduled now and sending (AWeber lists it as sent) to the newsletter's subscribers. */
	async function sendBroadcast(subject: string): Promise<number> {
		const path = `${listPath(bed.sandbox, newsletter())}/broadcasts`;
		const created = await call(bed.sandbox, 'POST', path, { token: token(), form: { subject, body_html: `<p>${subject}</p>` } });
		expect(created.status).toBe(200);
		const id = created.json().broadcast_id as number;
		const scheduled = await call(bed.sandbox, 'POST', `${path}/${id}/schedule`, { token: token(), form: { scheduled_for: new Date(bed.sandbox.clock.now()).toISOString() } });
		expect(scheduled.status).toBe(200);
		bed.sandbox.clock.advance(1_000);
		const read = await call(bed.sandbox, 'GET', `${path}/${id}`, { token: token() });
		expect(read.json().status).toMatch(/^(sending|sent)$/);
		return id;
	}

	/** The newsletter's subscribed subscribers (every broadcast's recipients): id and email. */
	async function recipients(): Promise<Array<{ id: number; email: string }>> {
		const response = await call(bed.sandbox, 'GET', `${listPath(bed.sandbox, newsletter())}/subscribers`, {
			token: token(),
			query: { 'ws.op': 'find', status: 'subscribed' },
		});
		return response.json().entries.map((entry: IDataObject) => ({ id: entry.id as number, email: entry.email as string }));
	}

	const trigger = (event: 'broadcastOpened' | 'linkClicked', extra: IDataObject = {}, options: IDataObject = {}) => {
		const runner = pollTrigger(bed, newsletter(), event, options);
		Object.assign(runner.workflow.node.parameters, extra);
		return runner;
	};

	const opens = (broadcastId: number, who: Array<{ id: number }>) => {
		for (const subscriber of who) bed.sandbox.activity.open(broadcastId, subscriber.id);
	};

	it('emits each first open once across pages, oldest first, naming the broadcast, the subscriber and the time', async () => {
		const people = await recipients();
		expect(people.length).toBeGreaterThanOrEqual(6);
		const spring = await sendBroadcast('Spring sale');
		opens(spring, people.slice(0, 2));
		const runner = trigger('broadcastOpened');
		expect(await runner.poll()).toBeNull();
		// Two entries a page: the five new opens span three pages, and the read stops at the two already there.
		bed.sandbox.pages.cap(2);
		bed.sandbox.clock.advance(2_000);
		opens(spring, people.slice(2, 7));
		// A second open by someone who opened before is no new first open.
		bed.sandbox.activity.open(spring, people[0].id);
		const items = await pollUntilQuiet(runner);
		expect(items.map((item) => item.email)).toEqual(people.slice(2, 7).map((person) => person.email));
		expect(items[0]).toEqual({
			event: 'broadcastOpened',
			broadcast_id: spring,
			broadcast_subject: 'Spring sale',
			email: people[2].email,
			subscriber_link: expect.stringMatching(new RegExp(`/subscribers/${people[2].id}$`)),
			event_time: expect.any(String),
		});
		const times = items.map((item) => Date.parse(item.event_time as string));
		expect(times).toEqual([...times].sort((a, b) => a - b));
		expect(await runner.poll()).toBeNull();
	});

	it('emits the opens of a broadcast sent between two polls, from its first, and those of the others once', async () => {
		const people = await recipients();
		const first = await sendBroadcast('First');
		opens(first, people.slice(0, 1));
		const runner = trigger('broadcastOpened');
		expect(await runner.poll()).toBeNull();
		const second = await sendBroadcast('Second');
		opens(second, people.slice(0, 3));
		opens(first, people.slice(1, 2));
		const items = await pollUntilQuiet(runner);
		expect(items.map((item) => `${item.broadcast_subject} ${item.email}`).sort()).toEqual(
			[`First ${people[1].email}`, ...people.slice(0, 3).map((person) => `Second ${person.email}`)].sort(),
		);
		expect(await runner.poll()).toBeNull();
	});

	it('emits each click with its URL, two clicks of one link by one subscriber as two, across pages', async () => {
		const people = await recipients();
		const launch = await sendBroadcast('Launch');
		bed.sandbox.activity.click(launch, people[0].id, 'https://example.com/old');
		const runner = trigger('linkClicked');
		expect(await runner.poll()).toBeNull();
		bed.sandbox.pages.cap(2);
		bed.sandbox.activity.click(launch, people[0].id, 'https://example.com/pricing');
		bed.sandbox.activity.click(launch, people[0].id, 'https://example.com/pricing');
		bed.sandbox.activity.click(launch, people[1].id, 'https://example.com/pricing');
		bed.sandbox.activity.click(launch, people[2].id, 'https://example.com/faq');
		const items = await pollUntilQuiet(runner);
		expect(items.map((item) => `${item.email} ${item.url}`).sort()).toEqual(
			[
				`${people[0].email} https://example.com/pricing`,
				`${people[0].email} https://example.com/pricing`,
				`${people[1].email} https://example.com/pricing`,
				`${people[2].email} https://example.com/faq`,
			].sort(),
		);
		expect(items[0]).toMatchObject({ event: 'linkClicked', broadcast_id: launch, broadcast_subject: 'Launch', url: expect.any(String) });
		expect(await runner.poll()).toBeNull();
	});

	it('an idle poll makes at most one call per broadcast in the window: the look-up and the reads take turns', async () => {
		const sent: number[] = [];
		for (const subject of ['One', 'Two', 'Three']) sent.push(await sendBroadcast(subject));
		const runner = trigger('broadcastOpened');
		expect(await runner.poll()).toBeNull();
		const polls: string[][] = [];
		for (let poll = 0; poll < 8; poll++) {
			bed.sandbox.clearRequests();
			expect(await runner.poll()).toBeNull();
			polls.push(apiCalls().map((entry) => entry.path.match(/\/broadcasts\/(\d+)\/opens$/)?.[1] ?? (/\/broadcasts$/.test(entry.path) ? 'window' : entry.path)));
		}
		for (const calls of polls) expect(calls.length).toBeLessThanOrEqual(3);
		// Each turn is skipped once in four polls and never twice running: every broadcast and the look-up in any two.
		const turns = [...sent.map(String), 'window'];
		for (let poll = 1; poll < polls.length; poll++) expect([...new Set([...polls[poll - 1], ...polls[poll]])].sort()).toEqual([...turns].sort());
		for (const turn of turns) expect(polls.flat().filter((called) => called === turn)).toHaveLength(6);
		// The stored position stays one entry per broadcast in the window, whatever the turn.
		expect(Object.keys((runner.workflow.nodeStaticData.engagement as IDataObject).broadcasts as IDataObject).sort()).toEqual(sent.map(String).sort());
	});

	it('a broadcast whose read was skipped gets all its opens on the next poll, and no other twice', async () => {
		const people = await recipients();
		const sent: number[] = [];
		for (const subject of ['Alpha', 'Beta', 'Gamma']) sent.push(await sendBroadcast(subject));
		const runner = trigger('broadcastOpened');
		expect(await runner.poll()).toBeNull();
		for (const id of sent) opens(id, people.slice(0, 3));
		bed.sandbox.clearRequests();
		const first = (await runner.poll()) ?? [];
		const read = apiCalls().map((entry) => entry.path.match(/\/broadcasts\/(\d+)\/opens$/)?.[1]).filter((id) => id !== undefined);
		const skipped = sent.filter((id) => !read.includes(String(id)));
		expect(skipped).toHaveLength(1);
		expect(first.map((item) => item.broadcast_id)).not.toContain(skipped[0]);
		expect(first).toHaveLength(6);
		const second = (await runner.poll()) ?? [];
		expect(second.map((item) => `${item.broadcast_id} ${item.email}`).sort()).toEqual(people.slice(0, 3).map((person) => `${skipped[0]} ${person.email}`).sort());
		expect(await pollUntilQuiet(runner)).toEqual([]);
	});

	it('with one chosen broadcast an idle poll is one call', async () => {
		const people = await recipients();
		const chosen = await sendBroadcast('Chosen');
		await sendBroadcast('Other');
		const runner = trigger('linkClicked', { broadcastScope: 'chosen', broadcastId: { __rl: true, mode: 'id', value: String(chosen) } });
		expect(await runner.poll()).toBeNull();
		bed.sandbox.clearRequests();
		expect(await runner.poll()).toBeNull();
		expect(apiCalls()).toHaveLength(1);
		bed.sandbox.activity.click(chosen, people[0].id, 'https://example.com/a');
		expect((await runner.poll())?.map((item) => item.url)).toEqual(['https://example.com/a']);
	});

	it('forgets a broadcast once it leaves the window, so the stored position stays bounded', async () => {
		await sendBroadcast('Old news');
		const runner = trigger('broadcastOpened', { windowDays: 1 });
		expect(await runner.poll()).toBeNull();
		expect(Object.keys((runner.workflow.nodeStaticData.engagement as IDataObject).broadcasts as IDataObject)).toHaveLength(1);
		bed.sandbox.clock.advance(2 * DAY);
		expect(await runner.poll()).toBeNull();
		expect((runner.workflow.nodeStaticData.engagement as IDataObject).broadcasts).toEqual({});
		// With no broadcast in the window an idle poll is the look-up alone, and saves nothing.
		const saves = runner.workflow.saves;
		bed.sandbox.clearRequests();
		expect(await runner.poll()).toBeNull();
		expect(apiCalls().map((entry) => entry.path)).toEqual([expect.stringMatching(/\/broadcasts$/)]);
		expect(runner.workflow.saves).toBe(saves);
	});

	it('emits at most Max Events per Poll, the rest on the next polls, none twice', async () => {
		const people = await recipients();
		const busy = await sendBroadcast('Busy');
		const runner = trigger('broadcastOpened', {}, { maxEventsPerPoll: 2 });
		expect(await runner.poll()).toBeNull();
		opens(busy, people.slice(0, 5));
		const sizes: number[] = [];
		const emails: string[] = [];
		// One broadcast: its read and the look-up take turns, so it is read every other poll.
		for (let poll = 0; poll < 8; poll++) {
			const items = (await runner.poll()) ?? [];
			sizes.push(items.length);
			emails.push(...items.map((item) => item.email as string));
		}
		expect(sizes.filter((size) => size > 0)).toEqual([2, 2, 1]);
		expect(emails.sort()).toEqual(people.slice(0, 5).map((person) => person.email).sort());
	});

	it('Fetch Test Event returns the newest open as a sample and keeps no position', async () => {
		const people = await recipients();
		const sample = await sendBroadcast('Sample');
		opens(sample, people.slice(0, 2));
		const runner = trigger('broadcastOpened');
		const items = await runner.poll({ mode: 'manual' });
		expect(items).toEqual([expect.objectContaining({ broadcast_subject: 'Sample', email: people[1].email })]);
		expect(runner.workflow.nodeStaticData.engagement).toBeUndefined();
	});
});
