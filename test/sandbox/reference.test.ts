// The sandbox against AWeber's own API reference (test/sandbox/reference/README.md): each test reads what it
// expects from the reference's statement, named by operation and schema, and the answers of the operations the
// nodes use are validated against the reviewed schema extract, so a future divergence fails here.
import { PURCHASE, accountPath, call, listPath, useSandbox } from './api-test-client';
import {
	BROADCAST_STATISTIC_IDS_IN_PATH_ENUM,
	Broadcasts,
	BroadcastLinksReport,
	Campaign,
	FindCampaigns,
	LandingPage,
	LandingPages,
	Problem,
	Stat,
	Subscriber,
	type ReferenceSchema,
} from './reference/schemas';
import { validateAgainstReference } from './reference/validate';
import type { Sandbox } from './types';

let sandbox: Sandbox;
let token: string;

useSandbox((started, fresh) => {
	sandbox = started;
	token = fresh;
});

const newsletter = () => listPath(sandbox, sandbox.seed.lists.newsletter);
const get = async (path: string, query?: Record<string, string>) => await call(sandbox, 'GET', path, { token, query });

function expectValid(schema: ReferenceSchema, body: unknown) {
	expect(validateAgainstReference(schema, body)).toEqual([]);
}

describe('the reference extract validator', () => {
	it('names the field, the value and what the reference says, so it can fail', () => {
		expect(validateAgainstReference(Subscriber, { area_code: '215', status: 'pending', id: 1 })).toEqual([
			'$.area_code: is string ("215"), the reference says integer',
			'$.status: "pending" is not one of "subscribed", "unsubscribed", "unconfirmed"',
		]);
		expect(validateAgainstReference(LandingPages, { entries: [{ status: 'draft', content_html: '<h1>' }] })).toEqual([
			'$.entries[0].status: "draft" is not one of "published", "unpublished"',
			'$.entries[0].content_html: is not in the reference\'s schema',
		]);
		expect(validateAgainstReference(Campaign, { message_interval: 0 })).toEqual(['$.message_interval: 0 is below the minimum 1']);
		expect(validateAgainstReference(Broadcasts, { entries: [] })).toEqual([
			'$.self_link: is missing, the reference requires it',
			'$.resource_type_link: is missing, the reference requires it',
			'$.start: is missing, the reference requires it',
			'$.total_size_link: is missing, the reference requires it',
		]);
	});
});

describe('divergences fixed, each as the reference states it', () => {
	it('Get landing pages answers LandingPages whose entries are LandingPageNoContent (no HTML), status published or unpublished', async () => {
		const response = await get(`${newsletter()}/landing_pages`);
		expect(response.status).toBe(200);
		const body = response.json();
		expectValid(LandingPages, body);
		for (const entry of body.entries) {
			expect(entry).not.toHaveProperty('content_html');
			expect(entry).not.toHaveProperty('published_html');
		}
		expect(body.entries.map((entry: { status: string }) => entry.status)).toEqual(['published', 'unpublished']);
	});

	it('Get landing page answers LandingPage: LandingPageNoContent plus content_html and published_html', async () => {
		const body = (await get(`${newsletter()}/landing_pages/${sandbox.seed.landingPages.newsletter}`)).json();
		expectValid(LandingPage, body);
		expect(body).toMatchObject({ content_html: expect.any(String), published_html: expect.any(String), status: 'published' });
	});

	it('Delete subscriber (DELETE …/subscribers/{subscriberId}) answers 200, as delete by email does', async () => {
		const response = await call(sandbox, 'DELETE', `${newsletter()}/subscribers/${sandbox.seed.subscribers.subscribed}`, { token });
		expect(response.status).toBe(200);
	});

	it('Get subscribers answers Subscriber entries whose area_code is an integer', async () => {
		const body = (await get(`${newsletter()}/subscribers`)).json();
		const withAreaCode = body.entries.filter((entry: { area_code: unknown }) => entry.area_code !== null);
		expect(withAreaCode.length).toBeGreaterThan(0);
		for (const entry of withAreaCode) expect(Number.isInteger(entry.area_code)).toBe(true);
		for (const entry of body.entries) expectValid(Subscriber, entry);
	});

	it('Get broadcasts answers Broadcasts with its self_link and only the entry fields the schema lists', async () => {
		for (const status of ['draft', 'scheduled', 'sent']) {
			const response = await get(`${newsletter()}/broadcasts`, { status, 'ws.size': '1' });
			const body = response.json();
			expectValid(Broadcasts, body);
			expect(body.self_link).toBe(`${sandbox.apiBaseUrl}/1.0${newsletter()}/broadcasts?status=${status}`);
		}
	});

	it('Get campaigns answers Campaign entries whose follow-up message_interval is at least 1', async () => {
		const body = (await get(`${newsletter()}/campaigns`)).json();
		const followUps = body.entries.filter((entry: { campaign_type: string }) => entry.campaign_type === 'f');
		expect(followUps.length).toBeGreaterThan(0);
		for (const entry of followUps) expect(entry.message_interval).toBeGreaterThanOrEqual(1);
		for (const entry of body.entries) expectValid(Campaign, entry);
	});

	it('Find campaigns without its required campaign_type answers 400; with it, FindCampaigns', async () => {
		const missing = await get(`${newsletter()}/campaigns`, { 'ws.op': 'find' });
		expect(missing.status).toBe(400);
		expect(missing.json().error.message).toMatch(/campaign_type/);
		const found = await get(`${newsletter()}/campaigns`, { 'ws.op': 'find', campaign_type: 'f' });
		expect(found.status).toBe(200);
		expectValid(FindCampaigns, found.json());
	});

	it('Find lists with an unknown ws.op answers 400 BadRequestError (the reference\'s type for a bad query)', async () => {
		const response = await get(`${accountPath(sandbox)}/lists`, { 'ws.op': 'teleport' });
		expect(response.status).toBe(400);
		expect(response.json().error.type).toBe('BadRequestError');
	});

	it('Create a purchase (POST …/purchases, schema Purchase) without one of its required fields answers its 400 table\'s BadRequestError', async () => {
		const purchase: Record<string, unknown> = { ...PURCHASE };
		for (const field of Object.keys(purchase)) {
			const { [field]: _left, ...withoutField } = purchase;
			const response = await call(sandbox, 'POST', `${newsletter()}/purchases`, { token, json: withoutField });
			expect([field, response.status, response.json().error]).toEqual([
				field,
				400,
				expect.objectContaining({ type: 'BadRequestError', message: `Missing required argument(s): ${field}` }),
			]);
		}
		const notANumber = await call(sandbox, 'POST', `${newsletter()}/purchases`, { token, json: { ...purchase, value: 'lots' } });
		expect(notANumber.json().error).toMatchObject({ status: 400, type: 'BadRequestError' });
		expect((await call(sandbox, 'POST', `${newsletter()}/purchases`, { token, json: purchase })).status).toBe(202);
	});

	it('Get broadcasts of a list that does not exist answers 404 ListNotFoundError (the broadcasts 404 table)', async () => {
		const response = await get(`${listPath(sandbox, 999999)}/broadcasts`, { status: 'sent' });
		expect(response.status).toBe(404);
		expect(response.json().error.type).toBe('ListNotFoundError');
	});
});

describe('Get broadcast statistic: the path enum\'s names, and the prose\'s', () => {
	const stats = () => `${newsletter()}/campaigns/b${sandbox.seed.broadcasts.sent}/stats`;

	it('lists every statistic of the reference\'s path enum (daily_unsubscribed, hourly_unsubscribed), each a Stat', async () => {
		const body = (await get(stats())).json();
		expect(body.entries.map((entry: { id: string }) => entry.id).sort()).toEqual([...BROADCAST_STATISTIC_IDS_IN_PATH_ENUM].sort());
		for (const entry of body.entries) expectValid(Stat, entry);
	});

	it('answers both spellings of the unsubscribe series with the same statistic', async () => {
		for (const period of ['daily', 'hourly']) {
			const enumSpelling = await get(`${stats()}/${period}_unsubscribed`);
			const proseSpelling = await get(`${stats()}/${period}_unsubscribes`);
			expect(enumSpelling.status).toBe(200);
			expect(proseSpelling.json()).toEqual(enumSpelling.json());
		}
	});

	it('answers 404 for a spelling a test narrowed away (to prove the nodes ask for the other)', async () => {
		sandbox.statisticNames(['unsubscribes']);
		expect((await get(`${stats()}/daily_unsubscribed`)).status).toBe(404);
		expect((await get(`${stats()}/daily_unsubscribes`)).status).toBe(200);
		sandbox.reset();
		expect((await get(`${stats()}/daily_unsubscribed`)).status).toBe(200);
	});
});

describe('2.0-beta: Broadcast Links Analytics (getBroadcastLinksAnalytics)', () => {
	const reportUrl = () => `${sandbox.apiBaseUrl}/2.0-beta/analytics/reports/broadcasts-links`;
	const broadcastUuid = async (id = sandbox.seed.broadcasts.sent) => (await get(`${newsletter()}/broadcasts/${id}`)).json().uuid as string;
	const report = async (query: Record<string, string>, bearer = token) =>
		await call(sandbox, 'GET', reportUrl(), { token: bearer, query: { account_id: sandbox.seed.accountUuid, ...query } });
	const nextLink = (header: unknown) => /<([^>]+)>;\s*rel="?next"?/.exec(String(header ?? ''))?.[1];

	it('answers the clicks per URL of a broadcast, unique and total, as a bare array sorted by unique ascending', async () => {
		const response = await report({ broadcast_id: await broadcastUuid(), filter: 'clicks' });
		expect(response.status).toBe(200);
		expect(response.headers['content-type']).toMatch(/^application\/json/);
		const body = response.json();
		expectValid(BroadcastLinksReport, body);
		expect(body.map((entry: { url: string }) => entry.url).sort()).toEqual([
			'https://sandbox-outfitters.example/jackets',
			'https://sandbox-outfitters.example/sale',
			'https://sandbox-outfitters.example/spring',
		]);
		const uniques = body.map((entry: { unique: number }) => entry.unique);
		expect(uniques).toEqual([...uniques].sort((a, b) => a - b));
		for (const entry of body) expect(entry.total).toBeGreaterThanOrEqual(entry.unique);
		expect(response.headers.link).toBeUndefined();
	});

	it('agrees with the v1 statistic clicks_by_link on every URL', async () => {
		const v1 = (await get(`${newsletter()}/campaigns/b${sandbox.seed.broadcasts.sent}/stats/clicks_by_link`)).json().value;
		const beta = (await report({ broadcast_id: await broadcastUuid(), filter: 'clicks' })).json();
		for (const link of v1) {
			expect(beta).toContainEqual({ url: link.url, unique: link.unique_clicks, total: link.total_clicks, type: 'click' });
		}
	});

	it('pages through the Link header: every page view of the sent broadcast once, in order, over two pages', async () => {
		const first = await report({ broadcast_id: await broadcastUuid(), filter: 'pageviews', sort_by: 'total', sort_asc: 'false' });
		const next = nextLink(first.headers.link);
		expect(next).toMatch(new RegExp(`^${reportUrl().replace(/[.?]/g, '\\$&')}\\?`));
		const second = await call(sandbox, 'GET', next as string, { token });
		expect(nextLink(second.headers.link)).toBeUndefined();
		const all = [...first.json(), ...second.json()];
		expect(first.json()).toHaveLength(100);
		expect(new Set(all.map((entry) => entry.url)).size).toBe(all.length);
		expect(all.length).toBeGreaterThan(100);
		const totals = all.map((entry) => entry.total);
		expect(totals).toEqual([...totals].sort((a, b) => b - a));
		expectValid(BroadcastLinksReport, all);
	});

	it('keeps only the links whose unique count is within min_count and max_count, and honours page_size', async () => {
		const body = (await report({ broadcast_id: await broadcastUuid(), filter: 'pageviews', min_count: '5', max_count: '6', page_size: '3' })).json();
		expect(body).toHaveLength(3);
		for (const entry of body) expect(entry.unique === 5 || entry.unique === 6).toBe(true);
	});

	it('answers a broadcast or an account it does not know with 404 application/problem+json naming which', async () => {
		const unknownBroadcast = await report({ broadcast_id: '00000000-0000-4000-8000-000000000000', filter: 'clicks' });
		expect(unknownBroadcast.status).toBe(404);
		expect(unknownBroadcast.headers['content-type']).toMatch(/^application\/problem\+json/);
		expectValid(Problem, unknownBroadcast.json());
		expect(unknownBroadcast.json()).toMatchObject({ title: 'Not Found', status: 404, detail: 'The requested broadcast could not be found' });

		const unknownAccount = await report({ account_id: '00000000-0000-4000-8000-000000000000', broadcast_id: await broadcastUuid(), filter: 'clicks' });
		expect(unknownAccount.json()).toMatchObject({ status: 404, detail: 'The requested account could not be found' });
	});

	it('answers a missing filter or a numeric ID with 400 application/problem+json', async () => {
		const noFilter = await report({ broadcast_id: await broadcastUuid() });
		expect(noFilter.status).toBe(400);
		expect(noFilter.json()).toMatchObject({ title: 'Request Error', status: 400, detail: "'filter' is a required property" });
		const numericId = await report({ broadcast_id: String(sandbox.seed.broadcasts.sent), filter: 'clicks' });
		expect(numericId.status).toBe(400);
		expectValid(Problem, numericId.json());
	});

	it('takes the same token and scopes as /1.0: no email.read is 403, no token 401, both as problem+json', async () => {
		const withoutScope = sandbox.issueToken(['list.read']).access_token;
		const refused = await report({ broadcast_id: await broadcastUuid(), filter: 'clicks' }, withoutScope);
		expect(refused.status).toBe(403);
		expect(refused.json()).toMatchObject({ status: 403, detail: 'Missing required scope: email.read' });
		const anonymous = await call(sandbox, 'GET', reportUrl(), { query: { filter: 'clicks' } });
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
	});

	it('an unsent broadcast has an empty report', async () => {
		const body = (await report({ broadcast_id: await broadcastUuid(sandbox.seed.broadcasts.draft), filter: 'clicks' })).json();
		expect(body).toEqual([]);
	});
});
