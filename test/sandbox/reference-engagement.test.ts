// A sent broadcast's opens and clicks against AWeber's reference (reference/README.md): Get broadcast opens
// (getBroadcastOpens, schema BroadcastOpens) and Get broadcast clicks (getBroadcastClicks, BroadcastClicks or with
// detailed=true BroadcastClicksDetailed): newest first by event_time, cursor pages (`after` to older entries, `before` to
// newer ones, never both), page_size 1 to 100; and the control plane that records an open or a click.
import { request } from 'undici';

import { call, listPath, useSandbox } from './api-test-client';
import { BroadcastClicks, BroadcastClicksDetailed, BroadcastOpens, type ReferenceSchema } from './reference/schemas';
import { validateAgainstReference } from './reference/validate';
import type { Sandbox } from './types';

let sandbox: Sandbox;
let token: string;

useSandbox((started, fresh) => {
	sandbox = started;
	token = fresh;
});

const broadcastPath = () => `${listPath(sandbox, sandbox.seed.lists.newsletter)}/broadcasts/${sandbox.seed.broadcasts.sent}`;
const get = async (path: string, query?: Record<string, string>, withToken = token) => await call(sandbox, 'GET', path, { token: withToken, query });
const times = (entries: Array<{ event_time: string }>) => entries.map((entry) => Date.parse(entry.event_time));
const newestFirst = (values: number[]) => [...values].sort((a, b) => b - a);

function expectValid(schema: ReferenceSchema, body: unknown) {
	expect(validateAgainstReference(schema, body)).toEqual([]);
}

/** Every entry of a cursor collection, page after page through next_collection_link. */
async function readAll(path: string, query: Record<string, string>): Promise<{ entries: Array<Record<string, string>>; pages: number }> {
	const entries: Array<Record<string, string>> = [];
	let response = await get(path, query);
	let pages = 1;
	for (;;) {
		const body = response.json();
		entries.push(...body.entries);
		if (body.next_collection_link === undefined) return { entries, pages };
		response = await get(body.next_collection_link);
		pages++;
	}
}

/** A recipient of the sent broadcast who has not opened it yet. */
async function recipientWithoutOpen(): Promise<number> {
	const messages = (await get(`${listPath(sandbox, sandbox.seed.lists.newsletter)}/campaigns/b${sandbox.seed.broadcasts.sent}/messages`)).json().entries;
	const opened = new Set((await readAll(`${broadcastPath()}/opens`, {})).entries.map((entry) => entry.subscriber_link));
	const link = messages.map((message: { subscriber_link: string }) => message.subscriber_link).find((candidate: string) => !opened.has(candidate));
	return Number(String(link).split('/').pop());
}

describe('Get broadcast opens (BroadcastOpens)', () => {
	it('answers the first open per subscriber, most recent first by event_time, as the reference\'s schema', async () => {
		const body = (await get(`${broadcastPath()}/opens`)).json();
		expectValid(BroadcastOpens, body);
		expect(body.entries.length).toBeGreaterThan(2);
		expect(times(body.entries)).toEqual(newestFirst(times(body.entries)));
		const subscribers = body.entries.map((entry: { subscriber_link: string }) => entry.subscriber_link);
		expect(new Set(subscribers).size).toBe(subscribers.length);
		expect(body.total_size).toBe(body.entries.length);
	});

	it('pages with page_size: next_collection_link (after=) walks to older entries, each once; prev_collection_link (before=) back', async () => {
		const all = (await get(`${broadcastPath()}/opens`)).json().entries;
		const paged = await readAll(`${broadcastPath()}/opens`, { page_size: '2' });
		expect(paged.pages).toBe(Math.ceil(all.length / 2));
		expect(paged.entries).toEqual(all);
		const first = (await get(`${broadcastPath()}/opens`, { page_size: '2' })).json();
		expect(first.prev_collection_link).toBeUndefined();
		const second = (await get(first.next_collection_link)).json();
		expectValid(BroadcastOpens, second);
		expect(second.next_collection_link).toMatch(/[?&]after=/);
		expect((await get(second.prev_collection_link)).json().entries).toEqual(first.entries);
	});

	it('refuses before and after together, and a page_size outside 1 to 100, with 400', async () => {
		const first = (await get(`${broadcastPath()}/opens`, { page_size: '1' })).json();
		const after = new URL(first.next_collection_link).searchParams.get('after') as string;
		expect((await get(`${broadcastPath()}/opens`, { after, before: after })).status).toBe(400);
		expect((await get(`${broadcastPath()}/opens`, { page_size: '0' })).status).toBe(400);
		expect((await get(`${broadcastPath()}/opens`, { page_size: '101' })).status).toBe(400);
		expect((await get(`${broadcastPath()}/opens`, { page_size: '100' })).status).toBe(200);
	});

	it('shows the email only to a token with subscriber.read', async () => {
		const withoutSubscriberRead = sandbox.issueToken(['email.read']).access_token;
		const body = (await get(`${broadcastPath()}/opens`, undefined, withoutSubscriberRead)).json();
		expectValid(BroadcastOpens, body);
		for (const entry of body.entries) expect(entry).not.toHaveProperty('email');
	});
});

describe('Get broadcast clicks (BroadcastClicks, BroadcastClicksDetailed)', () => {
	it('aggregated: one entry per subscriber whose event_time is the first click, most recent first by it', async () => {
		const body = (await get(`${broadcastPath()}/clicks`)).json();
		expectValid(BroadcastClicks, body);
		expect(body.entries.length).toBeGreaterThan(1);
		for (const entry of body.entries) expect(entry.event_time).toBe(entry.first_click_at);
		expect(times(body.entries)).toEqual(newestFirst(times(body.entries)));
		expect(body.entries.some((entry: { total_clicks: number }) => entry.total_clicks > 1)).toBe(true);
	});

	it('detailed=true: one entry per click with its URL, most recent first, total_size counting every click', async () => {
		const aggregated = (await get(`${broadcastPath()}/clicks`)).json();
		const body = (await get(`${broadcastPath()}/clicks`, { detailed: 'true' })).json();
		expectValid(BroadcastClicksDetailed, body);
		const clicks = aggregated.entries.reduce((sum: number, entry: { total_clicks: number }) => sum + entry.total_clicks, 0);
		expect(body.entries).toHaveLength(clicks);
		expect(body.total_size).toBe(clicks);
		for (const entry of body.entries) expect(entry.clicked_at).toBe(entry.event_time);
		expect(times(body.entries)).toEqual(newestFirst(times(body.entries)));
		const paged = await readAll(`${broadcastPath()}/clicks`, { detailed: 'true', page_size: '3' });
		expect(paged.entries).toEqual(body.entries);
		expect(paged.pages).toBeGreaterThan(1);
	});

	it('refuses a detailed that is no boolean with 400', async () => {
		expect((await get(`${broadcastPath()}/clicks`, { detailed: 'yes' })).status).toBe(400);
	});
});

describe('the control plane records an open or a click now', () => {
	async function control(body: unknown) {
		const response = await request(`${sandbox.apiBaseUrl}/__sandbox/activity`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: response.statusCode, text: await response.body.text() };
	}

	it('puts a first open on top of the opens, and a second open of the same subscriber nowhere', async () => {
		const subscriberId = await recipientWithoutOpen();
		sandbox.clock.advance(5_000);
		expect((await control({ kind: 'open', broadcastId: sandbox.seed.broadcasts.sent, subscriberId })).status).toBe(200);
		const before = (await get(`${broadcastPath()}/opens`)).json();
		expect(before.entries[0].subscriber_link).toMatch(new RegExp(`/subscribers/${subscriberId}$`));
		expect(Date.parse(before.entries[0].event_time)).toBeGreaterThan(Date.parse(before.entries[1].event_time));
		sandbox.clock.advance(5_000);
		sandbox.activity.open(sandbox.seed.broadcasts.sent, subscriberId);
		expect((await get(`${broadcastPath()}/opens`)).json().entries).toEqual(before.entries);
	});

	it('adds each click with its URL on top of the detailed clicks', async () => {
		const subscriberId = await recipientWithoutOpen();
		sandbox.clock.advance(5_000);
		sandbox.activity.click(sandbox.seed.broadcasts.sent, subscriberId, 'https://example.com/pricing');
		sandbox.activity.click(sandbox.seed.broadcasts.sent, subscriberId, 'https://example.com/pricing');
		const entries = (await get(`${broadcastPath()}/clicks`, { detailed: 'true' })).json().entries;
		expect(entries.slice(0, 2)).toEqual([
			expect.objectContaining({ url: 'https://example.com/pricing', subscriber_link: expect.stringMatching(new RegExp(`/subscribers/${subscriberId}$`)) }),
			expect.objectContaining({ url: 'https://example.com/pricing', subscriber_link: expect.stringMatching(new RegExp(`/subscribers/${subscriberId}$`)) }),
		]);
	});

	it('refuses a subscriber who did not receive the broadcast, and a broadcast not sent', async () => {
		expect((await control({ kind: 'open', broadcastId: sandbox.seed.broadcasts.draft, subscriberId: sandbox.seed.subscribers.subscribed })).status).toBe(404);
		expect((await control({ kind: 'click', broadcastId: sandbox.seed.broadcasts.sent, subscriberId: 999_999 })).status).toBe(404);
		expect((await control({ kind: 'bounce', broadcastId: sandbox.seed.broadcasts.sent, subscriberId: 1 })).status).toBe(400);
	});
});
