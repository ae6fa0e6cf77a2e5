// AWeber's collection envelope at 0, 1, 100, 101 and 10,000 entries, and its paging parameters.
import { accountPath, call, listPath } from './api-test-client';
import { startSandbox } from './index';
import type { Sandbox } from './types';

let sandbox: Sandbox;
let token: string;

beforeAll(async () => {
	sandbox = await startSandbox({ seedSize: 0 });
	token = sandbox.issueToken().access_token;
});

afterAll(async () => {
	await sandbox.stop();
});

const bulkSubscribers = () => `${listPath(sandbox, sandbox.seed.lists.bulk)}/subscribers`;
const absolute = (path: string) => `${sandbox.apiBaseUrl}/1.0${path}`;

async function bulkOfSize(size: number): Promise<void> {
	sandbox.reset({ seedSize: size });
}

describe('the collection envelope', () => {
	it('at 0 entries: no entries, total_size 0, no page links', async () => {
		const body = (await call(sandbox, 'GET', `${listPath(sandbox, sandbox.seed.lists.empty)}/subscribers`, { token })).json();
		expect(body).toEqual({
			entries: [],
			start: 0,
			total_size: 0,
			resource_type_link: absolute('/#subscriber-page-resource'),
			self_link: absolute(`${listPath(sandbox, sandbox.seed.lists.empty)}/subscribers`),
		});
	});

	it('at 1 entry: the account collection', async () => {
		const body = (await call(sandbox, 'GET', '/accounts', { token })).json();
		expect(body.entries).toHaveLength(1);
		expect(body).toMatchObject({ start: 0, total_size: 1, resource_type_link: absolute('/#account-page-resource') });
		expect(body.next_collection_link).toBeUndefined();
		expect(body.prev_collection_link).toBeUndefined();
		expect(body.entries[0]).toMatchObject({
			id: sandbox.seed.accountId,
			self_link: absolute(accountPath(sandbox)),
			resource_type_link: absolute('/#account'),
			lists_collection_link: absolute(`${accountPath(sandbox)}/lists`),
			integrations_collection_link: absolute(`${accountPath(sandbox)}/integrations`),
			http_etag: expect.stringMatching(/^"[0-9a-f]{40}-[0-9a-f]{40}"$/),
		});
	});

	it('at 100 entries: one full page and no next link', async () => {
		await bulkOfSize(100);
		const body = (await call(sandbox, 'GET', bulkSubscribers(), { token })).json();
		expect(body.entries).toHaveLength(100);
		expect(body.total_size).toBe(100);
		expect(body.next_collection_link).toBeUndefined();
		expect(body.prev_collection_link).toBeUndefined();
	});

	it('at 101 entries: absolute next and prev links carrying ws.start and ws.size', async () => {
		await bulkOfSize(101);
		const first = (await call(sandbox, 'GET', bulkSubscribers(), { token })).json();
		expect(first.entries).toHaveLength(100);
		expect(first.next_collection_link).toBe(`${absolute(bulkSubscribers())}?ws.start=100&ws.size=100`);
		expect(first.prev_collection_link).toBeUndefined();
		const second = (await call(sandbox, 'GET', first.next_collection_link, { token })).json();
		expect(second.entries).toHaveLength(1);
		expect(second.start).toBe(100);
		expect(second.entries[0].email).toBe('bulk.00101@example.com');
		expect(second.next_collection_link).toBeUndefined();
		expect(second.prev_collection_link).toBe(`${absolute(bulkSubscribers())}?ws.start=0&ws.size=100`);
	});

	it('at 10,000 entries: following next links visits every subscriber once, in the order they were added', async () => {
		await bulkOfSize(10_000);
		const emails: string[] = [];
		let link: string | undefined = absolute(bulkSubscribers());
		let pages = 0;
		while (link !== undefined) {
			const body = (await call(sandbox, 'GET', link, { token })).json();
			expect(body.total_size).toBe(10_000);
			emails.push(...body.entries.map((entry: { email: string }) => entry.email));
			link = body.next_collection_link;
			pages++;
		}
		expect(pages).toBe(100);
		expect(emails).toHaveLength(10_000);
		expect(new Set(emails).size).toBe(10_000);
		expect(emails[0]).toBe('bulk.00001@example.com');
		expect(emails[9_999]).toBe('bulk.10000@example.com');
		const list = (await call(sandbox, 'GET', listPath(sandbox, sandbox.seed.lists.bulk), { token })).json();
		expect(list.total_subscribed_subscribers).toBe(10_000);
	});

	it('keeps the named operation and its filters in page links, and reports total_size_link for find', async () => {
		await bulkOfSize(150);
		const body = (
			await call(sandbox, 'GET', bulkSubscribers(), { token, query: { 'ws.op': 'find', status: 'subscribed', 'ws.size': '50', 'ws.start': '50' } })
		).json();
		expect(body.entries).toHaveLength(50);
		expect(body.total_size).toBeUndefined();
		expect(body.total_size_link).toBe(`${absolute(bulkSubscribers())}?ws.op=find&status=subscribed&ws.show=total_size`);
		expect(body.next_collection_link).toBe(`${absolute(bulkSubscribers())}?ws.op=find&status=subscribed&ws.start=100&ws.size=50`);
		expect(body.prev_collection_link).toBe(`${absolute(bulkSubscribers())}?ws.op=find&status=subscribed&ws.start=0&ws.size=50`);
		const size = await call(sandbox, 'GET', body.total_size_link, { token });
		expect(size.json()).toBe(150);
	});

	it('sorts subscribers newest first with sort_order=desc', async () => {
		await bulkOfSize(5);
		const body = (await call(sandbox, 'GET', bulkSubscribers(), { token, query: { sort_order: 'desc' } })).json();
		expect(body.entries.map((entry: { email: string }) => entry.email)[0]).toBe('bulk.00005@example.com');
	});
});

describe('paging parameters', () => {
	it.each([
		['ws.size', '101', 'Maximum for "ws.size" parameter is 100.'],
		['ws.size', '0', 'Minimum for "ws.size" parameter is 1.'],
		['ws.start', '-1', 'Minimum for "ws.start" parameter is 0.'],
		['ws.start', 'ten', 'Invalid value for "ws.start" parameter.'],
	])('%s=%s is a 400 WebServiceError', async (name, value, message) => {
		const response = await call(sandbox, 'GET', `${accountPath(sandbox)}/lists`, { token, query: { [name]: value } });
		expect(response.status).toBe(400);
		expect(response.json().error).toMatchObject({ status: 400, type: 'WebServiceError', message });
	});

	it('answers an empty page past the end', async () => {
		const body = (await call(sandbox, 'GET', `${accountPath(sandbox)}/lists`, { token, query: { 'ws.start': '50' } })).json();
		expect(body).toMatchObject({ entries: [], start: 50, total_size: 4 });
		expect(body.prev_collection_link).toBeDefined();
	});

	it('answers ws.show=total_size with the bare count', async () => {
		const response = await call(sandbox, 'GET', `${accountPath(sandbox)}/lists`, { token, query: { 'ws.op': 'find', name: 'Newsletter', 'ws.show': 'total_size' } });
		expect(response.text).toBe('1');
	});
});

describe('entries', () => {
	it('carry self_link, http_etag, resource_type_link and their collection links', async () => {
		const list = (await call(sandbox, 'GET', listPath(sandbox, sandbox.seed.lists.newsletter), { token })).json();
		const self = absolute(listPath(sandbox, sandbox.seed.lists.newsletter));
		expect(list).toMatchObject({
			self_link: self,
			resource_type_link: absolute('/#list'),
			http_etag: expect.any(String),
			subscribers_collection_link: `${self}/subscribers`,
			custom_fields_collection_link: `${self}/custom_fields`,
			campaigns_collection_link: `${self}/campaigns`,
			web_forms_collection_link: `${self}/web_forms`,
			segments_collection_link: `${self}/segments`,
			landing_pages_collection_link: `${self}/landing_pages`,
			sent_broadcasts_link: `${self}/broadcasts?status=sent`,
		});
	});

	it('change their http_etag when they change', async () => {
		const path = `${listPath(sandbox, sandbox.seed.lists.newsletter)}/custom_fields/${sandbox.seed.customFields.plan}`;
		const before = (await call(sandbox, 'GET', path, { token })).json().http_etag;
		await call(sandbox, 'PATCH', path, { token, json: { name: 'Tier' } });
		expect((await call(sandbox, 'GET', path, { token })).json().http_etag).not.toBe(before);
	});

	it('of campaigns carry no http_etag', async () => {
		const body = (await call(sandbox, 'GET', `${listPath(sandbox, sandbox.seed.lists.newsletter)}/campaigns`, { token })).json();
		expect(body.entries.length).toBeGreaterThan(0);
		for (const entry of body.entries) expect(entry.http_etag).toBeUndefined();
	});
});
