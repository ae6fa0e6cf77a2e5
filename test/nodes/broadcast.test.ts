import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import {
	apiCalls,
	byId,
	callLines,
	listPath,
	newsletterScope,
	registerSmallPageVariant,
	run,
	runInTimeZone,
} from './email-nodes.helpers';

const DAY = 24 * 3_600_000;

const bed = useTestbed();

/**
 * A time `days` ahead of both the real clock (which the node checks) and the sandbox clock (which runs 60x
 * faster and which AWeber's check uses), as ISO-8601 with offset.
 */
function daysAhead(days: number, from = Math.max(Date.now(), bed.sandbox.clock.now())): string {
	return new Date(from + days * DAY).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

const broadcast = (parameters: IDataObject, options = {}) =>
	run(bed, 'aWeberBroadcast', { ...newsletterScope(bed), ...parameters }, options);
const broadcastPath = (id: number | string) => `${listPath(bed)}/broadcasts/${id}`;

describe('AWeber Broadcast node: writes', () => {

	it('creates a draft form-encoded, with lists as a JSON array of list links and the picked segment and integrations as links', async () => {
		const { seed } = bed.sandbox;
		const result = await broadcast({
			operation: 'create',
			subject: 'Spring sale',
			bodyHtml: '<p>Hello</p>',
			simplify: false,
			additionalFields: {
				includeLists: { lists: [{ list: byId(seed.lists.customers) }, { list: byId(seed.lists.bulk) }] },
				excludeLists: { lists: [{ list: byId(seed.lists.empty) }] },
				segment: byId(603),
				facebookIntegration: byId(seed.integrations.facebook),
				twitterIntegration: byId(seed.integrations.twitter),
				clickTrackingEnabled: false,
				notifyOnSend: false,
				bodyAmp: '<amp>hi</amp>',
			},
		});
		expect(result.error).toBeUndefined();
		const accountUrl = `${bed.sandbox.apiBaseUrl}/1.0/accounts/${seed.accountId}`;
		const includeLinks = [`${accountUrl}/lists/${seed.lists.customers}`, `${accountUrl}/lists/${seed.lists.bulk}`];
		expect(result.items).toEqual([
			expect.objectContaining({
				status: 'draft',
				subject: 'Spring sale',
				body_html: '<p>Hello</p>',
				body_amp: '<amp>hi</amp>',
				include_lists: includeLinks,
				exclude_lists: [`${accountUrl}/lists/${seed.lists.empty}`],
				segment_link: `${accountUrl}/lists/${seed.lists.newsletter}/segments/603`,
				facebook_integration: `${accountUrl}/integrations/${seed.integrations.facebook}`,
				twitter_integration: `${accountUrl}/integrations/${seed.integrations.twitter}`,
				click_tracking_enabled: false,
				notify_on_send: false,
				is_archived: true,
			}),
		]);
		const calls = apiCalls(bed);
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ method: 'POST', path: `${listPath(bed)}/broadcasts`, status: 200 });
		expect(calls[0].contentType).toMatch(/^application\/x-www-form-urlencoded/);
		expect(calls[0].body).toMatchObject({ include_lists: JSON.stringify(includeLinks), click_tracking_enabled: 'false' });
	});

	it.each([
		['an empty subject', '   ', /"Subject" field is empty/, 'AWeber needs a subject that is not only spaces.'],
		['a subject over 120 characters', 'x'.repeat(121), /"Subject" field is 121 characters long; AWeber allows at most 120/, 'Shorten the subject.'],
	])('refuses %s before any request, naming the field and what to do', async (_case, subject, message, advice) => {
		const result = await broadcast({ operation: 'create', subject, bodyText: 'Hello' });
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toBe(advice);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('refuses a broadcast without HTML or text body before any request', async () => {
		const result = await broadcast({ operation: 'create', subject: 'No content' });
		expect(result.error?.message).toBe('The broadcast has no content');
		expect(apiCalls(bed)).toEqual([]);
	});

	it('with Continue On Fail, reports a bad subject on its own item and creates the others', async () => {
		const result = await broadcast(
			{ operation: 'create', subject: '={{ $json.subject }}', bodyText: 'Hello' },
			{ continueOnFail: true, items: [{ subject: 'Fine' }, { subject: '' }] },
		);
		expect(result.status).toBe('success');
		expect(result.items[0]).toMatchObject({ subject: 'Fine', status: 'draft' });
		expect(result.items[1]).toMatchObject({ error: expect.stringMatching(/"Subject" field is empty/) });
		expect(callLines(bed)).toEqual([`POST ${listPath(bed)}/broadcasts`]);
	});

	it('drafts and schedules in one step when "Schedule For" is set, and outputs the scheduled broadcast', async () => {
		const when = daysAhead(3);
		const result = await broadcast({
			operation: 'create',
			subject: 'Flash sale',
			bodyHtml: '<p>Now</p>',
			additionalFields: { scheduledFor: when },
		});
		expect(result.error).toBeUndefined();
		const [created] = result.items;
		expect(created).toMatchObject({ status: 'scheduled', subject: 'Flash sale' });
		expect(Date.parse(String(created.scheduled_for))).toBe(Date.parse(when));
		const id = created.broadcast_id as number;
		expect(callLines(bed)).toEqual([
			`POST ${listPath(bed)}/broadcasts`,
			`POST ${broadcastPath(id)}/schedule`,
			`GET ${broadcastPath(id)}`,
		]);
		const schedule = apiCalls(bed)[1];
		expect(schedule.contentType).toMatch(/^application\/x-www-form-urlencoded/);
		expect(schedule.body).toEqual({ scheduled_for: when });
	});

	it('refuses a "Schedule For" in the past on create before creating anything', async () => {
		const result = await broadcast({
			operation: 'create',
			subject: 'Too late',
			bodyText: 'Hi',
			additionalFields: { scheduledFor: daysAhead(-1, Date.now()) },
		});
		expect(result.error?.message).toMatch(/The "Schedule For" time .* is in the past/);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('says the draft exists when AWeber refuses to schedule it right after creating it', async () => {
		bed.sandbox.clock.advance(3 * DAY);
		const result = await broadcast({
			operation: 'create',
			subject: 'Late',
			bodyText: 'Hi',
			additionalFields: { scheduledFor: daysAhead(1, Date.now()) },
		});
		expect(result.error?.message).toMatch(/^The broadcast was created as draft \d+, but AWeber did not schedule it: /);
		expect(result.error?.description).toMatch(/Schedule the draft with the Schedule operation, or delete it/);
		// (The jump of the sandbox clock also expired the access token: the first call is refused, then retried.)
		expect(apiCalls(bed).slice(-2).map((call) => `${call.method} ${call.path.split('/').at(-1)} ${call.status}`)).toEqual([
			'POST broadcasts 200',
			'POST schedule 400',
		]);
	});

	it('refuses content over AWeber\'s 1,000,000-byte limit before any request', async () => {
		const result = await broadcast({ operation: 'create', subject: 'Huge', bodyHtml: 'x'.repeat(1_000_000) });
		expect(result.error?.message).toMatch(/AWeber accepts at most 1000000/);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('goes through the life cycle: create, update, schedule, cancel, reschedule, delete', async () => {
		const created = await broadcast({
			operation: 'create',
			subject: 'Life cycle',
			bodyHtml: '<p>One</p>',
			bodyText: 'One',
			additionalFields: { isArchived: false },
		});
		const id = created.items[0].broadcast_id as number;
		const broadcastId = byId(id);

		const updated = await broadcast({ operation: 'update', broadcastId, updateFields: { subject: 'Life cycle, take two' }, simplify: false });
		expect(updated.items).toEqual([
			expect.objectContaining({ broadcast_id: id, subject: 'Life cycle, take two', body_html: '<p>One</p>', is_archived: false }),
		]);
		const update = apiCalls(bed).at(-1);
		expect(update).toMatchObject({ method: 'PUT', path: broadcastPath(id), body: { subject: 'Life cycle, take two' } });
		expect(update?.contentType).toMatch(/^application\/x-www-form-urlencoded/);

		bed.sandbox.clearRequests();
		const firstTime = daysAhead(2);
		const scheduled = await broadcast({ operation: 'schedule', broadcastId, scheduledFor: firstTime });
		expect(scheduled.items).toEqual([expect.objectContaining({ broadcast_id: id, status: 'scheduled' })]);
		expect(Date.parse(String(scheduled.items[0].scheduled_for))).toBe(Date.parse(firstTime));
		// The calls-per-operation target: the schedule itself, then one read of the broadcast.
		expect(callLines(bed)).toEqual([`POST ${broadcastPath(id)}/schedule`, `GET ${broadcastPath(id)}`]);

		bed.sandbox.clearRequests();
		const cancelled = await broadcast({ operation: 'cancel', broadcastId });
		expect(cancelled.items).toEqual([expect.objectContaining({ broadcast_id: id, status: 'draft', scheduled_for: null })]);
		expect(callLines(bed)).toEqual([`POST ${broadcastPath(id)}/cancel`, `GET ${broadcastPath(id)}`]);

		const secondTime = daysAhead(5);
		const rescheduled = await broadcast({ operation: 'schedule', broadcastId, scheduledFor: secondTime });
		expect(rescheduled.items[0]).toMatchObject({ status: 'scheduled' });
		expect(Date.parse(String(rescheduled.items[0].scheduled_for))).toBe(Date.parse(secondTime));

		// AWeber deletes drafts only: a scheduled broadcast is refused with a hint to cancel first.
		const refused = await broadcast({ operation: 'delete', broadcastId });
		expect(refused.status).toBe('error');
		expect(refused.error?.httpCode).toBe('409');
		expect(refused.error?.description).toMatch(/cancel a scheduled broadcast first/);

		await broadcast({ operation: 'cancel', broadcastId });
		bed.sandbox.clearRequests();
		const deleted = await broadcast({ operation: 'delete', broadcastId });
		expect(deleted.items).toEqual([{ deleted: true }]);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ method: 'DELETE', path: broadcastPath(id), status: 204 })]);

		const total = await broadcast({ operation: 'getTotal', status: 'draft' });
		expect(total.items).toEqual([{ total_size: 1 }]);
	});

	it('refuses to schedule a sent broadcast with AWeber\'s reason and what to do', async () => {
		const result = await broadcast({ operation: 'schedule', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), scheduledFor: daysAhead(1) });
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/cannot be scheduled/);
		expect(result.error?.httpCode).toBe('409');
		expect(result.error?.description).toMatch(/Only a draft broadcast can be scheduled/);
		expect(result.error?.description).toMatch(/BroadcastSchedulingError/);
		expect(callLines(bed)).toEqual([`POST ${broadcastPath(bed.sandbox.seed.broadcasts.sent)}/schedule`]);
	});

	it('refuses to schedule in the past before any request', async () => {
		const result = await broadcast({
			operation: 'schedule',
			broadcastId: byId(bed.sandbox.seed.broadcasts.draft),
			scheduledFor: '2020-01-01T10:00:00',
		});
		expect(result.error?.message).toMatch(/^The "Schedule For" time 2020-01-01T10:00:00[+-]\d{2}:\d{2} is in the past$/);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('explains AWeber\'s BroadcastDatetimeExpired when the time has passed by AWeber\'s clock', async () => {
		bed.sandbox.clock.advance(3 * DAY);
		const tomorrowByRealClock = daysAhead(1, Date.now());
		const result = await broadcast({ operation: 'schedule', broadcastId: byId(bed.sandbox.seed.broadcasts.draft), scheduledFor: tomorrowByRealClock });
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.description).toMatch(/already passed by AWeber's clock/);
	});

	it('reads a time without a zone in the workflow\'s time zone, and keeps a time with an offset as it is', async () => {
		const draft = byId(bed.sandbox.seed.broadcasts.draft);
		const year = new Date().getUTCFullYear() + 2;
		const tokyo = await runInTimeZone(
			bed,
			'aWeberBroadcast',
			{ ...newsletterScope(bed), operation: 'schedule', broadcastId: draft, scheduledFor: `${year}-06-01T09:30:00` },
			'Asia/Tokyo',
		);
		expect(tokyo.error).toBeUndefined();
		expect(apiCalls(bed)[0].body).toEqual({ scheduled_for: `${year}-06-01T09:30:00+09:00` });
		expect(Date.parse(String(tokyo.items[0].scheduled_for))).toBe(Date.parse(`${year}-06-01T00:30:00Z`));

		await broadcast({ operation: 'cancel', broadcastId: draft });
		bed.sandbox.clearRequests();
		await runInTimeZone(
			bed,
			'aWeberBroadcast',
			{ ...newsletterScope(bed), operation: 'schedule', broadcastId: draft, scheduledFor: `${year}-06-01T09:30:00-05:00` },
			'Asia/Tokyo',
		);
		expect(apiCalls(bed)[0].body).toEqual({ scheduled_for: `${year}-06-01T09:30:00-05:00` });
	});

	it('refuses to update a draft made in AWeber\'s editor, explaining which broadcasts the API may change', async () => {
		const { SEED_EXTRAS } = await import('../sandbox');
		const result = await broadcast({ operation: 'update', broadcastId: byId(SEED_EXTRAS.uiDraftBroadcast), updateFields: { subject: 'New' } });
		expect(result.error?.httpCode).toBe('409');
		expect(result.error?.description).toMatch(/only drafts created through the API/);
	});

	it('refuses an update with no field to change before any request', async () => {
		const result = await broadcast({ operation: 'update', broadcastId: byId(bed.sandbox.seed.broadcasts.draft), updateFields: {} });
		expect(result.error?.message).toBe('Nothing to update');
		expect(apiCalls(bed)).toEqual([]);
	});

	it('update replaces the include lists and changes nothing else', async () => {
		const { seed } = bed.sandbox;
		const before = await broadcast({ operation: 'get', broadcastId: byId(seed.broadcasts.draft), simplify: false });
		const result = await broadcast({
			operation: 'update',
			broadcastId: byId(seed.broadcasts.draft),
			simplify: false,
			updateFields: { includeLists: { lists: [{ list: byId(seed.lists.bulk) }] }, segment: byId(603) },
		});
		expect(result.items[0]).toMatchObject({
			include_lists: [`${bed.sandbox.apiBaseUrl}/1.0/accounts/${seed.accountId}/lists/${seed.lists.bulk}`],
			exclude_lists: before.items[0].exclude_lists,
			subject: before.items[0].subject,
			body_html: before.items[0].body_html,
			segment_name: 'VIP readers',
		});
	});

	it('tells the user which scope to add when the credential cannot write email', async () => {
		const readOnly = bed.connect({ scopes: ['account.read', 'list.read', 'email.read'] });
		const result = await broadcast({ operation: 'create', subject: 'Hi', bodyText: 'Hi' }, { credentialId: readOnly });
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.description).toMatch(/"email\.write" scope/);
	});
});

describe('AWeber Broadcast node: reads', () => {
	it.each([
		['sent', ['Spring collection is here', 'Welcome to the Sandbox Outfitters newsletter']],
		['scheduled', ['Summer preview']],
		['draft', ['Autumn draft']],
	])('gets the %s broadcasts of a list, one item per broadcast', async (status, subjects) => {
		const result = await broadcast({ operation: 'getAll', status, returnAll: true });
		expect(result.items.map((item) => item.subject)).toEqual(subjects);
		expect(result.items.every((item) => item.status === status)).toBe(true);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${listPath(bed)}/broadcasts`, query: { status, 'ws.size': '100' } }),
		]);
	});

	it('gets a broadcast with its content and stats', async () => {
		const { seed } = bed.sandbox;
		const result = await broadcast({ operation: 'get', broadcastId: byId(seed.broadcasts.sent) });
		expect(result.items).toEqual([
			expect.objectContaining({
				broadcast_id: seed.broadcasts.sent,
				status: 'sent',
				stats: expect.objectContaining({ num_emailed: expect.any(Number), unique_opens: expect.any(Number) }),
			}),
		]);
		expect(callLines(bed)).toEqual([`GET ${broadcastPath(seed.broadcasts.sent)}`]);
	});

	it('counts the broadcasts of a status', async () => {
		const result = await broadcast({ operation: 'getTotal', status: 'sent' });
		expect(result.items).toEqual([{ total_size: 2 }]);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${listPath(bed)}/broadcasts/total`, query: { status: 'sent' } }),
		]);
	});

	it('gets the statistics as readable items, time series as lists, in one call', async () => {
		const { seed } = bed.sandbox;
		const result = await broadcast({ operation: 'getStatistics', broadcastId: byId(seed.broadcasts.sent), returnAll: true });
		expect(result.items).toHaveLength(21);
		for (const item of result.items) expect(Object.keys(item).sort()).toEqual(['broadcast_id', 'description', 'id', 'value']);
		expect(result.items).toEqual(
			expect.arrayContaining([
				{ broadcast_id: seed.broadcasts.sent, id: 'total_opens', description: 'Total opens', value: expect.any(Number) },
				expect.objectContaining({ id: 'hourly_opens', value: expect.arrayContaining([expect.objectContaining({ value: expect.any(Number) })]) }),
			]),
		);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ path: `${listPath(bed)}/campaigns/b${seed.broadcasts.sent}/stats`, query: { 'ws.size': '100' } }),
		]);
	});

	it('stops at the Limit', async () => {
		const result = await broadcast({ operation: 'getStatistics', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), limit: 3 });
		expect(result.items.map((item) => item.id)).toEqual(['total_clicks', 'unique_clicks', 'total_opens']);
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ query: { 'ws.size': '3' } })]);
	});

	it('gets one statistic: a daily time series has one point per day', async () => {
		const { seed } = bed.sandbox;
		const result = await broadcast({ operation: 'getStatistic', broadcastId: byId(seed.broadcasts.sent), statisticId: 'daily_opens' });
		expect(result.items).toEqual([
			{ broadcast_id: seed.broadcasts.sent, id: 'daily_opens', description: expect.any(String), value: expect.any(Array) },
		]);
		expect(result.items[0].value).toHaveLength(14);
		expect(callLines(bed)).toEqual([`GET ${listPath(bed)}/campaigns/b${seed.broadcasts.sent}/stats/daily_opens`]);
	});

	it.each(['getStatistics', 'getStatistic'])(
		'%s on a broadcast not yet sent: the headline says statistics exist only once it is sent',
		async (operation) => {
			const { draft } = bed.sandbox.seed.broadcasts;
			const result = await broadcast({ operation, broadcastId: byId(draft), statisticId: 'total_opens', returnAll: true });
			expect(result.error?.httpCode).toBe('404');
			expect(result.error?.message).toBe(`Broadcast ${draft} has no statistics yet: AWeber has statistics only once a broadcast is sent`);
			expect(result.error?.description).toMatch(/^AWeber answered "Campaign not found": the broadcast has not been sent yet/);
			expect(result.error?.description).toMatch(/only once it has been sent/);
		},
	);

	it('an unknown statistic of a sent broadcast keeps AWeber\'s own headline', async () => {
		const result = await broadcast({ operation: 'getStatistic', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), statisticId: 'no_such_stat' });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe('Statistic not found');
	});

	it('gets the opens of a sent broadcast in one call with Return All', async () => {
		const result = await broadcast({ operation: 'getOpens', broadcastId: byId(bed.sandbox.seed.broadcasts.sent), returnAll: true });
		expect(result.items.length).toBeGreaterThan(6);
		expect(result.items[0]).toMatchObject({ type: 'open', event_time: expect.any(String), subscriber_link: expect.any(String) });
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ path: `${broadcastPath(bed.sandbox.seed.broadcasts.sent)}/opens`, query: { page_size: '100' } }),
		]);
	});
});

describe('AWeber Broadcast node: cursor pages of opens and clicks', () => {
	let smallPages: string;
	beforeAll(() => {
		smallPages = registerSmallPageVariant(bed, 'aWeberBroadcast', 2);
	});
	const paged = (parameters: IDataObject) =>
		run(bed, smallPages, { ...newsletterScope(bed), broadcastId: byId(bed.sandbox.seed.broadcasts.sent), ...parameters });

	it.each([
		['opens', { operation: 'getOpens' }],
		['clicks per subscriber', { operation: 'getClicks' }],
		['clicks one by one', { operation: 'getClicks', detailed: true }],
	])('follows the %s across cursor pages with Return All, getting each entry once', async (_what, parameters) => {
		const whole = await broadcast({ broadcastId: byId(bed.sandbox.seed.broadcasts.sent), returnAll: true, ...parameters });
		bed.sandbox.clearRequests();
		const result = await paged({ returnAll: true, ...parameters });
		expect(result.items).toEqual(whole.items);
		const calls = apiCalls(bed);
		expect(calls.length).toBe(Math.ceil(whole.items.length / 2));
		expect(calls.length).toBeGreaterThanOrEqual(3);
		expect(calls[0].query).not.toHaveProperty('after');
		for (const call of calls.slice(1)) expect(call.query).toMatchObject({ after: expect.any(String), page_size: '2' });
		if ('detailed' in parameters) {
			for (const call of calls) expect(call.query.detailed).toBe('true');
			expect(result.items[0]).toMatchObject({ type: 'click', url: expect.any(String), clicked_at: expect.any(String) });
		}
	});

	it('asks the last page for only the entries still wanted', async () => {
		const result = await paged({ operation: 'getOpens', limit: 3 });
		expect(result.items).toHaveLength(3);
		expect(apiCalls(bed).map((call) => call.query.page_size)).toEqual(['2', '1']);
	});
});
