// Broadcasts as AWeber runs them: form-encoded writes, the draft → scheduled → sending → sent state machine on
// the sandbox clock, cancel, conflicts, cursor-paged opens and clicks, and the campaign statistics.
import { call, listPath, useSandbox } from './api-test-client';
import { SENDING_DURATION_MS } from './broadcast-lifecycle';
import { SEED_EXTRAS } from './seed';
import type { Sandbox } from './types';

let sandbox: Sandbox;
let token: string;

useSandbox((started, fresh) => {
	sandbox = started;
	token = fresh;
});

const newsletter = () => listPath(sandbox, sandbox.seed.lists.newsletter);
const broadcasts = () => `${newsletter()}/broadcasts`;
const broadcast = (id: number) => `${broadcasts()}/${id}`;
const absolute = (path: string) => `${sandbox.apiBaseUrl}/1.0${path}`;

function expectError(response: { status: number; json(): { error: Record<string, unknown> } }, status: number, type: string) {
	expect(response.status).toBe(status);
	expect(response.json().error).toMatchObject({ status, type });
}

async function createDraft(fields: Record<string, string> = {}): Promise<number> {
	const response = await call(sandbox, 'POST', broadcasts(), { token, form: { subject: 'Fresh news', body_html: '<p>Hello</p>', ...fields } });
	expect(response.status).toBe(200);
	return response.json().broadcast_id;
}

const isoIn = (ms: number) => new Date(sandbox.clock.now() + ms).toISOString();

describe('creating and editing broadcasts', () => {
	it('creates a draft with 200 and the whole broadcast, list fields given as JSON strings in the form', async () => {
		const response = await call(sandbox, 'POST', broadcasts(), {
			token,
			form: {
				subject: 'Spring sale',
				body_html: '<h1>Sale</h1><p>Everything must go</p>',
				include_lists: JSON.stringify([absolute(listPath(sandbox, sandbox.seed.lists.customers))]),
				segment_link: absolute(`${newsletter()}/segments/${sandbox.seed.segments.active}`),
				click_tracking_enabled: 'false',
			},
		});
		expect(response.status).toBe(200);
		const body = response.json();
		expect(body).toMatchObject({
			status: 'draft',
			subject: 'Spring sale',
			body_text: 'Sale\nEverything must go',
			has_customized_body_text: false,
			click_tracking_enabled: false,
			include_lists: [absolute(listPath(sandbox, sandbox.seed.lists.customers))],
			exclude_lists: [],
			segment_name: 'Active Subscribers',
			scheduled_for: null,
			sent_at: null,
			self_link: absolute(broadcast(body.broadcast_id)),
			opens_collection_link: absolute(`${broadcast(body.broadcast_id)}/opens`),
		});
		expect(body.uuid).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('accepts only form-encoded writes: JSON is 415', async () => {
		const response = await call(sandbox, 'POST', broadcasts(), { token, json: { subject: 'S', body_text: 'T' } });
		expect(response.status).toBe(415);
		expect(response.json().error).toMatchObject({ type: 'InvalidContentType', message: 'Content Type must be application/x-www-form-urlencoded' });
		const update = await call(sandbox, 'PUT', broadcast(sandbox.seed.broadcasts.draft), { token, json: { subject: 'S' } });
		expect(update.status).toBe(415);
	});

	it.each([
		['no subject', { body_text: 'no subject' }, 'MissingArgumentError'],
		['a blank subject', { subject: '   ', body_text: 'x' }, 'InvalidSubjectError'],
		['a subject over 120 characters', { subject: 'x'.repeat(121), body_text: 'x' }, 'InvalidSubjectError'],
		['no body', { subject: 'no body' }, 'MissingBodyError'],
		['a foreign list link', { subject: 's', body_text: 'x', include_lists: '["https://elsewhere.example/lists/1"]' }, 'InvalidListURIError'],
		['include_lists that is not JSON', { subject: 's', body_text: 'x', include_lists: 'not json' }, 'InvalidTypeError'],
		['a foreign integration', { subject: 's', body_text: 'x', facebook_integration: 'https://elsewhere.example/integrations/1' }, 'InvalidIntegrationURIError'],
	])('refuses %s with 400', async (_label, form, type) => {
		expectError(await call(sandbox, 'POST', broadcasts(), { token, form }), 400, type);
	});

	it('refuses a split-test segment', async () => {
		const form = { subject: 's', body_text: 'x', segment_link: absolute(`${newsletter()}/segments/${sandbox.seed.segments.splitTest}`) };
		expectError(await call(sandbox, 'POST', broadcasts(), { token, form }), 400, 'SplitTestSegmentError');
	});

	it('updates an API-created draft with 200; anything else is 409', async () => {
		const updated = await call(sandbox, 'PUT', broadcast(sandbox.seed.broadcasts.draft), { token, form: { subject: 'Autumn, final' } });
		expect(updated.status).toBe(200);
		expect(updated.json()).toMatchObject({ subject: 'Autumn, final', status: 'draft' });

		expectError(await call(sandbox, 'PUT', broadcast(sandbox.seed.broadcasts.scheduled), { token, form: { subject: 'x' } }), 409, 'BroadcastSchedulingError');
		expectError(await call(sandbox, 'PUT', broadcast(sandbox.seed.broadcasts.sent), { token, form: { subject: 'x' } }), 409, 'BroadcastSchedulingError');
		expectError(await call(sandbox, 'PUT', broadcast(SEED_EXTRAS.uiDraftBroadcast), { token, form: { subject: 'x' } }), 409, 'BroadcastSchedulingError');
	});

	it('a rejected update changes nothing', async () => {
		const response = await call(sandbox, 'PUT', broadcast(sandbox.seed.broadcasts.draft), {
			token,
			form: { subject: 'Changed', include_lists: '["nope"]' },
		});
		expectError(response, 400, 'InvalidListURIError');
		expect((await call(sandbox, 'GET', broadcast(sandbox.seed.broadcasts.draft), { token })).json().subject).toBe('Autumn draft');
	});

	it('deletes an API draft with 204, answers 204 for one that does not exist, 409 for a sent one', async () => {
		const draft = await createDraft();
		expect((await call(sandbox, 'DELETE', broadcast(draft), { token })).status).toBe(204);
		expectError(await call(sandbox, 'GET', broadcast(draft), { token }), 404, 'BroadcastNotFoundError');
		expect((await call(sandbox, 'DELETE', broadcast(draft), { token })).status).toBe(204);
		expectError(await call(sandbox, 'DELETE', broadcast(sandbox.seed.broadcasts.sent), { token }), 409, 'BroadcastSchedulingError');
	});
});

describe('listing broadcasts', () => {
	it('needs a status and lists only API-created drafts', async () => {
		expectError(await call(sandbox, 'GET', broadcasts(), { token }), 400, 'MissingStatusError');
		expectError(await call(sandbox, 'GET', broadcasts(), { token, query: { status: 'sending' } }), 400, 'InvalidBroadcastStatusError');
		const drafts = (await call(sandbox, 'GET', broadcasts(), { token, query: { status: 'draft' } })).json();
		expect(drafts.entries.map((entry: { broadcast_id: number }) => entry.broadcast_id)).toEqual([sandbox.seed.broadcasts.draft]);
		expect(Object.keys(drafts.entries[0]).sort()).toEqual(['broadcast_id', 'scheduled_for', 'self_link', 'sent_at', 'status', 'subject', 'uuid']);
		expect(drafts.total_size_link).toBeDefined();
	});

	it('counts them with /broadcasts/total', async () => {
		const total = await call(sandbox, 'GET', `${broadcasts()}/total`, { token, query: { status: 'sent' } });
		expect(total.status).toBe(200);
		expect(total.json()).toEqual({ total_size: 2 });
	});
});

describe('the broadcast state machine', () => {
	it('schedules a draft: 200 {self_link}; a past time is 400 BroadcastDatetimeExpired', async () => {
		const draft = await createDraft();
		const past = await call(sandbox, 'POST', `${broadcast(draft)}/schedule`, { token, form: { scheduled_for: isoIn(-3600 * 1000) } });
		expectError(past, 400, 'BroadcastDatetimeExpired');
		expectError(await call(sandbox, 'POST', `${broadcast(draft)}/schedule`, { token, form: {} }), 400, 'MissingDatetimeError');
		expectError(await call(sandbox, 'POST', `${broadcast(draft)}/schedule`, { token, form: { scheduled_for: 'tomorrow' } }), 400, 'InvalidDatetimeError');

		const when = isoIn(3600 * 1000);
		const scheduled = await call(sandbox, 'POST', `${broadcast(draft)}/schedule`, { token, form: { scheduled_for: when } });
		expect(scheduled.status).toBe(200);
		expect(scheduled.json()).toEqual({ self_link: absolute(broadcast(draft)) });
		const body = (await call(sandbox, 'GET', broadcast(draft), { token })).json();
		expect(body.status).toBe('scheduled');
		expect(Date.parse(body.scheduled_for)).toBe(Math.floor(Date.parse(when) / 1000) * 1000);
		const listed = (await call(sandbox, 'GET', broadcasts(), { token, query: { status: 'scheduled' } })).json();
		expect(listed.entries.map((entry: { broadcast_id: number }) => entry.broadcast_id)).toContain(draft);
	});

	it('sends a scheduled broadcast when the sandbox clock passes scheduled_for: sending, then sent with stats', async () => {
		const draft = await createDraft({ include_lists: JSON.stringify([absolute(listPath(sandbox, sandbox.seed.lists.customers))]) });
		await call(sandbox, 'POST', `${broadcast(draft)}/schedule`, { token, form: { scheduled_for: isoIn(10 * 60 * 1000) } });

		sandbox.clock.advance(10 * 60 * 1000 + 1000);
		const sending = (await call(sandbox, 'GET', broadcast(draft), { token })).json();
		expect(sending).toMatchObject({ status: 'sending', stats: null });
		expect(sending.sent_at).not.toBeNull();
		const sentList = (await call(sandbox, 'GET', broadcasts(), { token, query: { status: 'sent' } })).json();
		expect(sentList.entries[0]).toMatchObject({ broadcast_id: draft, status: 'sending' });
		expect((await call(sandbox, 'POST', `${broadcast(draft)}/cancel`, { token })).status).toBe(409);

		sandbox.clock.advance(SENDING_DURATION_MS);
		const sent = (await call(sandbox, 'GET', broadcast(draft), { token })).json();
		// 12 subscribed on Newsletter plus the Customers addresses not already among them (3 of 4 subscribed ones).
		expect(sent).toMatchObject({ status: 'sent', stats: { num_emailed: 15, unique_opens: 0, unique_clicks: 0 } });
		expect(sent.archive_url).toEqual(expect.any(String));

		const campaign = await call(sandbox, 'GET', `${newsletter()}/campaigns/b${draft}`, { token });
		expect(campaign.json()).toMatchObject({ id: draft, campaign_type: 'b', total_sent: 15 });
		expectError(await call(sandbox, 'POST', `${broadcast(draft)}/schedule`, { token, form: { scheduled_for: isoIn(3600 * 1000) } }), 409, 'BroadcastSchedulingError');
	});

	it('cancel returns a scheduled broadcast to draft; cancelling a draft changes nothing', async () => {
		const scheduled = sandbox.seed.broadcasts.scheduled;
		const cancelled = await call(sandbox, 'POST', `${broadcast(scheduled)}/cancel`, { token });
		expect(cancelled.status).toBe(200);
		expect(cancelled.json()).toEqual({ self_link: absolute(broadcast(scheduled)) });
		expect((await call(sandbox, 'GET', broadcast(scheduled), { token })).json()).toMatchObject({ status: 'draft', scheduled_for: null });

		const again = await call(sandbox, 'POST', `${broadcast(scheduled)}/cancel`, { token });
		expect(again.status).toBe(200);
		expect((await call(sandbox, 'GET', broadcast(scheduled), { token })).json().status).toBe('draft');
		// Back in draft it can be edited again.
		expect((await call(sandbox, 'PUT', broadcast(scheduled), { token, form: { subject: 'Summer, later' } })).status).toBe(200);
	});

	it('refuses to schedule a scheduled or sent broadcast with 409', async () => {
		const form = { scheduled_for: isoIn(3600 * 1000) };
		expectError(await call(sandbox, 'POST', `${broadcast(sandbox.seed.broadcasts.scheduled)}/schedule`, { token, form }), 409, 'BroadcastSchedulingError');
		expectError(await call(sandbox, 'POST', `${broadcast(sandbox.seed.broadcasts.sent)}/schedule`, { token, form }), 409, 'BroadcastSchedulingError');
	});

	it('refuses to cancel a sent broadcast with 409', async () => {
		expectError(await call(sandbox, 'POST', `${broadcast(sandbox.seed.broadcasts.sent)}/cancel`, { token }), 409, 'BroadcastSchedulingError');
	});
});

describe('opens and clicks', () => {
	async function walk(first: string, scopes?: string[]): Promise<Array<Array<Record<string, unknown>>>> {
		const pageToken = scopes === undefined ? token : sandbox.issueToken(scopes).access_token;
		const pages: Array<Array<Record<string, unknown>>> = [];
		let link: string | undefined = first;
		while (link !== undefined) {
			const body = (await call(sandbox, 'GET', link, { token: pageToken })).json();
			pages.push(body.entries);
			link = body.next_collection_link;
		}
		return pages;
	}

	it('pages opens with an after cursor, newest first, one entry per subscriber', async () => {
		const pages = await walk(absolute(`${broadcast(sandbox.seed.broadcasts.sent)}/opens?page_size=2`));
		expect(pages.length).toBeGreaterThanOrEqual(3);
		const entries = pages.flat();
		const subscribers = entries.map((entry) => entry.subscriber_link);
		expect(new Set(subscribers).size).toBe(entries.length);
		const times = entries.map((entry) => Date.parse(String(entry.event_time)));
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		expect(entries[0]).toMatchObject({ type: 'open', email: expect.stringContaining('@'), resource_type_link: absolute('/#open') });
	});

	it('walks back with the before cursor of prev_collection_link', async () => {
		const first = (await call(sandbox, 'GET', `${broadcast(sandbox.seed.broadcasts.sent)}/opens`, { token, query: { page_size: '2' } })).json();
		expect(first.prev_collection_link).toBeUndefined();
		expect(first.total_size).toBeGreaterThan(4);
		const second = (await call(sandbox, 'GET', first.next_collection_link, { token })).json();
		expect(second.prev_collection_link).toContain('before=');
		const back = (await call(sandbox, 'GET', second.prev_collection_link, { token })).json();
		expect(back.entries).toEqual(first.entries);
	});

	it('refuses before and after together, and page_size over 100', async () => {
		const path = `${broadcast(sandbox.seed.broadcasts.sent)}/opens`;
		expectError(await call(sandbox, 'GET', path, { token, query: { before: 'YQ==', after: 'YQ==' } }), 400, 'WebServiceError');
		expectError(await call(sandbox, 'GET', path, { token, query: { page_size: '101' } }), 400, 'WebServiceError');
	});

	it('shows addresses only to tokens with subscriber.read', async () => {
		const pages = await walk(absolute(`${broadcast(sandbox.seed.broadcasts.sent)}/opens`), ['email.read']);
		for (const entry of pages.flat()) expect(entry.email).toBeUndefined();
	});

	it('aggregates clicks per subscriber, or lists each click with its URL when detailed', async () => {
		const aggregated = (await walk(absolute(`${broadcast(sandbox.seed.broadcasts.sent)}/clicks?page_size=2`))).flat();
		const detailedPages = await walk(absolute(`${broadcast(sandbox.seed.broadcasts.sent)}/clicks?page_size=2&detailed=true`));
		const detailed = detailedPages.flat();
		expect(detailedPages.length).toBeGreaterThanOrEqual(3);
		expect(aggregated[0]).toEqual(
			expect.objectContaining({ type: 'click', total_clicks: expect.any(Number), first_click_at: expect.any(String), last_click_at: expect.any(String) }),
		);
		const total = aggregated.reduce((sum, entry) => sum + Number(entry.total_clicks), 0);
		expect(detailed).toHaveLength(total);
		expect(detailed[0]).toEqual(expect.objectContaining({ url: expect.stringMatching(/^https:/), clicked_at: expect.any(String) }));
	});
});

describe('campaigns', () => {
	const campaign = () => `${newsletter()}/campaigns/${sandbox.seed.campaigns.broadcast}`;

	it('lists broadcasts newest first, then follow-ups, and finds them by type', async () => {
		const all = (await call(sandbox, 'GET', `${newsletter()}/campaigns`, { token })).json();
		expect(all.entries.map((entry: { campaign_type: string; id: number }) => `${entry.campaign_type}${entry.id}`)).toEqual(['b5001', 'b5000', 'f6001', 'f6002']);
		const followUps = (await call(sandbox, 'GET', `${newsletter()}/campaigns`, { token, query: { 'ws.op': 'find', campaign_type: 'f' } })).json();
		expect(followUps.entries.map((entry: { message_number: number }) => entry.message_number)).toEqual([1, 2]);
		expect(followUps.total_size_link).toBeDefined();
	});

	it('reports aggregate, time series and top-10 statistics of a broadcast', async () => {
		const stats = (await call(sandbox, 'GET', `${campaign()}/stats`, { token })).json();
		const byId = new Map(stats.entries.map((entry: { id: string }) => [entry.id, entry]));
		expect(byId.get('unique_opens')).toMatchObject({ value: 8, resource_type_link: absolute('/#integer_stat') });
		expect(byId.get('total_sales_dollars')).toMatchObject({ resource_type_link: absolute('/#decimal_stat') });
		expect((byId.get('hourly_opens') as { value: unknown[] }).value).toHaveLength(24);
		expect((byId.get('daily_clicks') as { value: unknown[] }).value).toHaveLength(14);
		expect((byId.get('clicks_by_link') as { value: Array<{ url: string }> }).value[0].url).toMatch(/^https:/);
		const one = await call(sandbox, 'GET', `${campaign()}/stats/total_opens`, { token });
		expect(one.json()).toMatchObject({ id: 'total_opens', value: 10 });
	});

	it('lists messages, their opens and tracked events, and the subscribers a campaign was sent to', async () => {
		const messages = (await call(sandbox, 'GET', `${campaign()}/messages`, { token })).json();
		expect(messages.total_size).toBe(12);
		const message = (await call(sandbox, 'GET', `${campaign()}/messages/${sandbox.seed.messages.broadcast}`, { token })).json();
		expect(message).toMatchObject({ id: sandbox.seed.messages.broadcast, total_opens: 2 });
		const opens = (await call(sandbox, 'GET', message.opens_collection_link, { token })).json();
		expect(opens.entries).toHaveLength(2);
		const events = (await call(sandbox, 'GET', message.tracked_events_collection_link, { token })).json();
		expect(events.entries[0]).toMatchObject({ type: 'sale', product_name: 'Trail Jacket' });
		const recipients = await call(sandbox, 'GET', `${campaign()}/messages`, { token, query: { 'ws.op': 'getSubscribers' } });
		expect(recipients.json().entries[0]).toMatchObject({ resource_type_link: absolute('/#subscriber') });
		const withoutSubscriberRead = sandbox.issueToken(['email.read']).access_token;
		const refused = await call(sandbox, 'GET', `${campaign()}/messages`, { token: withoutSubscriberRead, query: { 'ws.op': 'getSubscribers' } });
		expectError(refused, 403, 'ForbiddenError');
	});
});
