// The resource API as AWeber behaves: authentication, scopes, status-code conventions, errors, subscribers,
// custom fields, lists, purchases and the request log.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PURCHASE, accountPath, call, listPath } from './api-test-client';
import { startSandbox } from './index';
import type { Sandbox } from './types';

let sandbox: Sandbox;
let token: string;
let journal: string;

beforeAll(async () => {
	journal = join(mkdtempSync(join(tmpdir(), 'aweber-sandbox-')), 'requests.jsonl');
	sandbox = await startSandbox({ logFile: journal });
});

afterAll(async () => {
	await sandbox.stop();
});

beforeEach(() => {
	sandbox.reset();
	token = sandbox.issueToken().access_token;
});

const newsletter = () => listPath(sandbox, sandbox.seed.lists.newsletter);
const customers = () => listPath(sandbox, sandbox.seed.lists.customers);

function expectAweberError(response: { status: number; json(): unknown }, status: number, type: string, message?: string | RegExp) {
	expect(response.status).toBe(status);
	const body = response.json() as { error: Record<string, unknown> };
	expect(body.error).toEqual({
		status,
		type,
		message: expect.any(String),
		documentation_url: expect.stringMatching(/^https:\/\/api\.aweber\.com\/#[a-z]+$/),
	});
	if (message !== undefined) expect(body.error.message).toMatch(message);
}

describe('authentication', () => {
	it('accepts the access token as a bearer header, a form body parameter or a query parameter', async () => {
		const header = await call(sandbox, 'GET', accountPath(sandbox), { token });
		const query = await call(sandbox, 'GET', accountPath(sandbox), { token, tokenIn: 'query' });
		const body = await call(sandbox, 'POST', `${newsletter()}/subscribers`, {
			token,
			tokenIn: 'body',
			form: { email: 'form.token@example.com' },
		});
		expect(header.status).toBe(200);
		expect(query.status).toBe(200);
		expect(body.status).toBe(201);
	});

	it('refuses a request that sends the token in two places with 400', async () => {
		const response = await call(sandbox, 'GET', accountPath(sandbox), {
			token,
			headers: { authorization: `Bearer ${token}` },
			query: { access_token: token },
		});
		expectAweberError(response, 400, 'BadRequestError', /only one way/);
	});

	it('answers 401 without a token, with an unknown token and with an expired one', async () => {
		expectAweberError(await call(sandbox, 'GET', accountPath(sandbox)), 401, 'UnauthorizedError');
		expectAweberError(await call(sandbox, 'GET', accountPath(sandbox), { token: 'not-a-token' }), 401, 'UnauthorizedError', /invalid/);
		sandbox.clock.advance(3600 * 1000);
		expectAweberError(await call(sandbox, 'GET', accountPath(sandbox), { token }), 401, 'UnauthorizedError', /expired/);
	});

	it('answers 401 once all tokens are expired by the control plane', async () => {
		sandbox.faults.expireAllTokens();
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(401);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token: sandbox.issueToken().access_token })).status).toBe(200);
	});

	it('does not serve another account than the token belongs to', async () => {
		const response = await call(sandbox, 'GET', '/accounts/999', { token });
		expectAweberError(response, 404, 'NotFoundError');
	});
});

describe('scopes', () => {
	it('answers 403 naming the missing scope', async () => {
		const readOnly = sandbox.issueToken(['list.read', 'subscriber.read']).access_token;
		const response = await call(sandbox, 'POST', `${newsletter()}/subscribers`, {
			token: readOnly,
			json: { email: 'scoped@example.com' },
		});
		expectAweberError(response, 403, 'ForbiddenError', 'Missing required scope: subscriber.write');
		expect((await call(sandbox, 'GET', `${newsletter()}/subscribers`, { token: readOnly })).status).toBe(200);
	});

	it('takes the scope of a named operation from ws.op', async () => {
		const accountOnly = sandbox.issueToken(['account.read']).access_token;
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token: accountOnly })).status).toBe(200);
		const find = await call(sandbox, 'GET', accountPath(sandbox), {
			token: accountOnly,
			query: { 'ws.op': 'findSubscribers', email: 'ada.lovelace@example.com' },
		});
		expectAweberError(find, 403, 'ForbiddenError', 'Missing required scope: subscriber.read');
		const forms = await call(sandbox, 'GET', accountPath(sandbox), { token: accountOnly, query: { 'ws.op': 'getWebForms' } });
		expectAweberError(forms, 403, 'ForbiddenError', 'Missing required scope: list.read');
	});

	it.each([
		['landing-page.read', 'GET', '/landing_pages', undefined],
		['list.write', 'POST', '/custom_fields', { 'ws.op': 'create', name: 'X' }],
		['email.read', 'GET', '/campaigns', undefined],
		['email.write', 'POST', '/broadcasts', { subject: 'S', body_text: 'b' }],
	] as const)('requires %s for %s %s', async (scope, method, suffix, form) => {
		const withoutIt = sandbox.issueToken(['account.read', 'list.read', 'subscriber.read']).access_token;
		const response = await call(sandbox, method, `${newsletter()}${suffix}`, { token: withoutIt, form });
		expectAweberError(response, 403, 'ForbiddenError', `Missing required scope: ${scope}`);
	});
});

describe('status-code conventions', () => {
	it('adds a subscriber with 201, a Location header and an empty body', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/subscribers`, {
			token,
			json: { email: 'new.reader@example.com', name: 'New Reader', tags: ['fresh'] },
		});
		expect(response.status).toBe(201);
		expect(response.text).toBe('');
		const location = String(response.headers.location);
		expect(location).toMatch(new RegExp(`^${sandbox.apiBaseUrl}/1.0/accounts/1234567/lists/2001/subscribers/\\d+$`));
		const created = (await call(sandbox, 'GET', location, { token })).json();
		expect(created).toMatchObject({ email: 'new.reader@example.com', name: 'New Reader', status: 'subscribed', tags: ['fresh'], self_link: location });
	});

	it('answers every PATCH with 209 and the updated entity', async () => {
		const subscriber = `${newsletter()}/subscribers/${sandbox.seed.subscribers.subscribed}`;
		const response = await call(sandbox, 'PATCH', subscriber, { token, json: { name: 'Renamed' } });
		expect(response.status).toBe(209);
		expect(response.json()).toMatchObject({ id: sandbox.seed.subscribers.subscribed, name: 'Renamed' });

		const field = `${newsletter()}/custom_fields/${sandbox.seed.customFields.plan}`;
		const fieldResponse = await call(sandbox, 'PATCH', field, { token, json: { name: 'Tier' } });
		expect(fieldResponse.status).toBe(209);
		expect(fieldResponse.json()).toMatchObject({ name: 'Tier', is_subscriber_updateable: true });
	});

	it('creates a custom field with ws.op=create: 201, Location, empty body', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/custom_fields`, { token, form: { 'ws.op': 'create', name: 'Favourite colour' } });
		expect(response.status).toBe(201);
		expect(response.text).toBe('');
		const field = (await call(sandbox, 'GET', String(response.headers.location), { token })).json();
		expect(field).toMatchObject({ name: 'Favourite colour', is_subscriber_updateable: false });
		expect(field.http_etag).toMatch(/^"[0-9a-f]{40}-[0-9a-f]{40}"$/);
	});

	it('deletes a custom field with 200 and a subscriber by id and by email with 200 (the reference)', async () => {
		const field = await call(sandbox, 'DELETE', `${newsletter()}/custom_fields/${sandbox.seed.customFields.birthday}`, { token });
		expect(field.status).toBe(200);
		const subscriber = await call(sandbox, 'GET', `${newsletter()}/subscribers/${sandbox.seed.subscribers.subscribed}`, { token });
		expect(Object.keys(subscriber.json().custom_fields)).toEqual(['Company', 'Plan']);

		const byId = await call(sandbox, 'DELETE', `${newsletter()}/subscribers/${sandbox.seed.subscribers.subscribed}`, { token });
		expect(byId.status).toBe(200);
		const byEmail = await call(sandbox, 'DELETE', `${newsletter()}/subscribers`, { token, query: { subscriber_email: 'GRACE.HOPPER@example.com' } });
		expect(byEmail.status).toBe(200);
		const gone = await call(sandbox, 'GET', `${newsletter()}/subscribers`, { token, query: { 'ws.op': 'find', email: 'grace.hopper@example.com', 'ws.show': 'total_size' } });
		expect(gone.json()).toBe(0);
	});

	it('answers 405 for a method the resource does not have', async () => {
		const response = await call(sandbox, 'PUT', `${newsletter()}/subscribers/${sandbox.seed.subscribers.subscribed}`, { token, json: {} });
		expectAweberError(response, 405, 'MethodNotAllowedError');
	});

	it('answers 404 for unknown ids', async () => {
		expectAweberError(await call(sandbox, 'GET', listPath(sandbox, 9999), { token }), 404, 'NotFoundError', 'List with given id not found');
		expectAweberError(await call(sandbox, 'GET', `${newsletter()}/subscribers/1`, { token }), 404, 'NotFoundError');
		expectAweberError(await call(sandbox, 'GET', `${customers()}/subscribers/${sandbox.seed.subscribers.subscribed}`, { token }), 404, 'NotFoundError');
		expectAweberError(await call(sandbox, 'GET', `${newsletter()}/custom_fields/12345`, { token }), 404, 'NotFoundError');
		expectAweberError(await call(sandbox, 'GET', `${newsletter()}/campaigns/x1`, { token }), 404, 'NotFoundError');
	});
});

describe('adding subscribers', () => {
	it('refuses an address already on the list with 400 unless update_existing is set', async () => {
		const duplicate = await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, json: { email: 'Ada.Lovelace@example.com' } });
		expectAweberError(duplicate, 400, 'WebServiceError', 'ada.lovelace@example.com is already subscribed to this list.');

		const updated = await call(sandbox, 'POST', `${newsletter()}/subscribers`, {
			token,
			json: { email: 'ada.lovelace@example.com', update_existing: 'true', name: 'Countess Ada', tags: ['poet'], custom_fields: { plan: 'team' } },
		});
		expect(updated.status).toBe(201);
		const ada = (await call(sandbox, 'GET', String(updated.headers.location), { token })).json();
		expect(ada.id).toBe(sandbox.seed.subscribers.subscribed);
		expect(ada.name).toBe('Countess Ada');
		expect(ada.tags).toEqual(expect.arrayContaining(['vip', 'webinar', 'customer', 'poet']));
		expect(ada.custom_fields).toEqual({ Company: 'Analytical Engines Ltd', Plan: 'team', Birthday: null });
	});

	it('requires an email and checks it', async () => {
		expectAweberError(await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, json: { name: 'Nobody' } }), 400, 'MissingArgumentError', /email/);
		expectAweberError(await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, json: { email: 'not-an-address' } }), 400, 'WebServiceError');
		expectAweberError(
			await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, json: { email: `${'a'.repeat(45)}@example.com` } }),
			400,
			'WebServiceError',
		);
	});

	it('rejects a private IP address', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, json: { email: 'ip@example.com', ip_address: '192.168.1.4' } });
		expectAweberError(response, 400, 'WebServiceError', 'Invalid Subscriber IP address. The address is part of a reserved block.');
	});

	it('takes JSON or form bodies only: anything else is 415', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, raw: { contentType: 'text/plain', body: 'email=x@example.com' } });
		expectAweberError(response, 415, 'InvalidContentType', 'Content Type must be application/json or application/x-www-form-urlencoded');
	});

	it('lands unconfirmed on a confirmed opt-in list whatever status is sent', async () => {
		const response = await call(sandbox, 'POST', `${listPath(sandbox, sandbox.seed.lists.empty)}/subscribers`, {
			token,
			json: { email: 'coi@example.com', status: 'subscribed' },
		});
		expect(response.status).toBe(201);
		expect((await call(sandbox, 'GET', String(response.headers.location), { token })).json().status).toBe('unconfirmed');
	});

	it('matches custom field names case-insensitively and ignores unknown ones unless strict_custom_fields', async () => {
		const lenient = await call(sandbox, 'POST', `${newsletter()}/subscribers`, {
			token,
			json: { email: 'lenient@example.com', custom_fields: { company: 'Lenient Ltd', shoe_size: '44' } },
		});
		expect(lenient.status).toBe(201);
		expect((await call(sandbox, 'GET', String(lenient.headers.location), { token })).json().custom_fields).toEqual({
			Company: 'Lenient Ltd',
			Plan: null,
			Birthday: null,
		});
		const strict = await call(sandbox, 'POST', `${newsletter()}/subscribers`, {
			token,
			json: { email: 'strict@example.com', strict_custom_fields: 'true', custom_fields: { company: 'Strict Ltd' } },
		});
		expectAweberError(strict, 400, 'WebServiceError', /company/);
	});
});

describe('updating subscribers', () => {
	const ada = () => `${newsletter()}/subscribers/${sandbox.seed.subscribers.subscribed}`;

	it('sets every custom field that a PATCH does not send to null, as AWeber does', async () => {
		const some = await call(sandbox, 'PATCH', ada(), { token, json: { custom_fields: { Plan: 'pro' } } });
		expect(some.json().custom_fields).toEqual({ Company: null, Plan: 'pro', Birthday: null });

		await call(sandbox, 'PATCH', ada(), { token, json: { custom_fields: { Company: 'A', Plan: 'B', Birthday: 'C' } } });
		const none = await call(sandbox, 'PATCH', ada(), { token, json: { name: 'Only the name' } });
		expect(none.json().custom_fields).toEqual({ Company: null, Plan: null, Birthday: null });
	});

	it('keeps every custom field when all are sent again', async () => {
		const before = (await call(sandbox, 'GET', ada(), { token })).json();
		const response = await call(sandbox, 'PATCH', ada(), { token, json: { custom_fields: { ...before.custom_fields, Plan: 'team' } } });
		expect(response.json().custom_fields).toEqual({ ...before.custom_fields, Plan: 'team' });
	});

	it('adds and removes tags with {add, remove}', async () => {
		const response = await call(sandbox, 'PATCH', ada(), { token, json: { tags: { add: ['new', 'vip'], remove: ['webinar'] } } });
		expect(response.json().tags.sort()).toEqual(['customer', 'new', 'vip']);
		const array = await call(sandbox, 'PATCH', ada(), { token, json: { tags: ['plain', 'array'] } });
		expectAweberError(array, 400, 'InvalidTypeError');
	});

	it('updates by email with ?subscriber_email=', async () => {
		const response = await call(sandbox, 'PATCH', `${newsletter()}/subscribers`, {
			token,
			query: { subscriber_email: 'grace.hopper@example.com' },
			json: { name: 'Rear Admiral Hopper' },
		});
		expect(response.status).toBe(209);
		expect(response.json()).toMatchObject({ email: 'grace.hopper@example.com', name: 'Rear Admiral Hopper' });
		const missing = await call(sandbox, 'PATCH', `${newsletter()}/subscribers`, { token, query: { subscriber_email: 'nobody@example.com' }, json: {} });
		expectAweberError(missing, 404, 'NotFoundError');
	});

	it('unsubscribes and resubscribes, but never sets unconfirmed', async () => {
		const unsubscribed = await call(sandbox, 'PATCH', ada(), { token, json: { status: 'unsubscribed' } });
		expect(unsubscribed.json()).toMatchObject({ status: 'unsubscribed', unsubscribe_method: 'api: unsubscribe' });
		expect(unsubscribed.json().unsubscribed_at).not.toBeNull();
		expectAweberError(await call(sandbox, 'PATCH', ada(), { token, json: { status: 'unconfirmed' } }), 400, 'WebServiceError');
		expect((await call(sandbox, 'PATCH', ada(), { token, json: { status: 'subscribed' } })).json().status).toBe('subscribed');
	});

	it('refuses a read-only field and an address already on the list', async () => {
		expectAweberError(await call(sandbox, 'PATCH', ada(), { token, json: { subscribed_at: '2020-01-01' } }), 400, 'BadRequestError', /read-only/);
		expectAweberError(await call(sandbox, 'PATCH', ada(), { token, json: { email: 'grace.hopper@example.com' } }), 400, 'WebServiceError');
	});

	it('answers 405 when deleting an unconfirmed subscriber', async () => {
		const response = await call(sandbox, 'DELETE', `${newsletter()}/subscribers/${sandbox.seed.subscribers.unconfirmed}`, { token });
		expectAweberError(response, 405, 'MethodNotAllowedError');
	});
});

describe('moving subscribers', () => {
	const customersLink = () => `${sandbox.apiBaseUrl}/1.0${customers()}`;

	it('moves with ws.op=move: 201 and the Location of the subscriber on the new list; the origin is unsubscribed', async () => {
		const grace = `${newsletter()}/subscribers/100002`;
		const response = await call(sandbox, 'POST', grace, { token, form: { 'ws.op': 'move', list_link: customersLink() } });
		expect(response.status).toBe(201);
		expect(response.text).toBe('');
		const moved = (await call(sandbox, 'GET', String(response.headers.location), { token })).json();
		expect(moved).toMatchObject({ email: 'grace.hopper@example.com', status: 'subscribed' });
		expect(moved.custom_fields).toEqual({ Company: 'Cobol Works', Plan: 'pro' });
		const origin = (await call(sandbox, 'GET', grace, { token })).json();
		expect(origin).toMatchObject({ status: 'unsubscribed', unsubscribe_method: 'api: move' });
	});

	it('answers 405 for an unconfirmed subscriber and for a list that already has the address', async () => {
		const unconfirmed = await call(sandbox, 'POST', `${newsletter()}/subscribers/${sandbox.seed.subscribers.unconfirmed}`, {
			token,
			json: { 'ws.op': 'move', list_link: customersLink() },
		});
		expectAweberError(unconfirmed, 405, 'MethodNotAllowedError');
		const already = await call(sandbox, 'POST', `${newsletter()}/subscribers/${sandbox.seed.subscribers.subscribed}`, {
			token,
			json: { 'ws.op': 'move', list_link: customersLink() },
		});
		expectAweberError(already, 405, 'MethodNotAllowedError', 'Subscriber already belongs to this list.');
	});

	it('needs ws.op and list_link', async () => {
		const subscriber = `${newsletter()}/subscribers/100002`;
		expectAweberError(await call(sandbox, 'POST', subscriber, { token, form: { list_link: customersLink() } }), 400, 'WebServiceError', 'No operation name given.');
		expectAweberError(await call(sandbox, 'POST', subscriber, { token, form: { 'ws.op': 'move' } }), 400, 'MissingArgumentError');
		expectAweberError(await call(sandbox, 'POST', subscriber, { token, form: { 'ws.op': 'teleport' } }), 400, 'BadRequestError', /teleport/);
	});

	it('with enforce_custom_field_mapping refuses fields the destination lacks', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/subscribers/100002`, {
			token,
			form: { 'ws.op': 'move', list_link: customersLink(), enforce_custom_field_mapping: 'true' },
		});
		expectAweberError(response, 400, 'WebServiceError', /Birthday/);
	});
});

describe('lists, search and activity', () => {
	it('finds lists by name or by unique list id, with total_size_link', async () => {
		const byName = (await call(sandbox, 'GET', `${accountPath(sandbox)}/lists`, { token, query: { 'ws.op': 'find', name: 'customers' } })).json();
		expect(byName.entries.map((list: { id: number }) => list.id)).toEqual([sandbox.seed.lists.customers]);
		expect(byName.total_size).toBeUndefined();
		expect(byName.total_size_link).toContain('ws.show=total_size');
		const byUniqueId = (await call(sandbox, 'GET', `${accountPath(sandbox)}/lists`, { token, query: { 'ws.op': 'find', name: 'awlist2003' } })).json();
		expect(byUniqueId.entries[0].name).toBe('Bulk');
		const count = await call(sandbox, 'GET', byName.total_size_link, { token });
		expect(count.json()).toBe(1);
	});

	it('finds subscribers by tags, status and custom fields, without http_etag', async () => {
		const found = await call(sandbox, 'GET', `${newsletter()}/subscribers`, {
			token,
			query: { 'ws.op': 'find', tags: JSON.stringify(['vip']), status: 'subscribed', custom_fields: JSON.stringify({ plan: 'free' }) },
		});
		const entries = found.json().entries;
		expect(entries.length).toBeGreaterThan(0);
		for (const entry of entries) {
			expect(entry.tags).toContain('vip');
			expect(entry.status).toBe('subscribed');
			expect(entry.custom_fields.Plan).toBe('free');
			expect(entry.http_etag).toBeUndefined();
		}
	});

	it('finds subscribers across the account with their list', async () => {
		const response = await call(sandbox, 'GET', accountPath(sandbox), { token, query: { 'ws.op': 'findSubscribers', email: 'ada.lovelace@example.com' } });
		const lists = response.json().entries.map((entry: { list_name: string }) => entry.list_name);
		expect(lists).toEqual(['Newsletter', 'Customers']);
	});

	it('returns the list tags as a bare array, most used first', async () => {
		const tags = (await call(sandbox, 'GET', `${newsletter()}/tags`, { token })).json();
		expect(Array.isArray(tags)).toBe(true);
		expect(tags[0]).toBe('webinar');
	});

	it('lists a subscriber activity newest first', async () => {
		const response = await call(sandbox, 'GET', `${newsletter()}/subscribers/${sandbox.seed.subscribers.subscribed}`, {
			token,
			query: { 'ws.op': 'getActivity' },
		});
		const body = response.json();
		const types = new Set(body.entries.map((entry: { type: string }) => entry.type));
		expect([...types]).toEqual(expect.arrayContaining(['subscribed', 'verified', 'sent_message', 'open', 'click', 'tracked_event']));
		const times = body.entries.map((entry: { event_time: string }) => Date.parse(entry.event_time));
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		expect(body.total_size_link).toBeDefined();
	});

	it('reads integrations, segments, web forms, split tests and landing pages', async () => {
		const integrations = (await call(sandbox, 'GET', `${accountPath(sandbox)}/integrations`, { token })).json();
		expect(integrations.entries.map((entry: { service_name: string }) => entry.service_name)).toEqual(['facebook', 'twitter', 'paypal']);
		const segments = (await call(sandbox, 'GET', `${newsletter()}/segments`, { token })).json();
		expect(segments.entries.some((segment: { is_split_test: boolean }) => segment.is_split_test)).toBe(true);
		const components = await call(sandbox, 'GET', `${newsletter()}/web_form_split_tests/${sandbox.seed.splitTests.newsletter}/components/${sandbox.seed.splitTestComponents.first}`, { token });
		expect(components.json()).toMatchObject({ weight: 50, web_form_link: expect.stringContaining('/web_forms/801') });
		const forms = (await call(sandbox, 'GET', accountPath(sandbox), { token, query: { 'ws.op': 'getWebForms' } })).json();
		expect(forms.total_size).toBe(4);
		const page = await call(sandbox, 'GET', `${newsletter()}/landing_pages/${sandbox.seed.landingPages.newsletter}`, { token });
		expect(page.json()).toMatchObject({ status: 'published', name: 'Spring launch' });
	});
});

describe('purchases', () => {
	it('records a sale as a tracked event and creates the subscriber when needed', async () => {
		const response = await call(sandbox, 'POST', `${newsletter()}/purchases`, {
			token,
			json: { ...PURCHASE, tags: ['buyer'] },
		});
		expect(response.status).toBe(202);
		expect(response.text).toBe('');
		const location = String(response.headers.location);
		expect(location).toMatch(/\/subscribers\/\d+\?ws\.op=getActivity$/);
		const activity = (await call(sandbox, 'GET', location, { token })).json();
		expect(activity.entries.find((entry: { type: string }) => entry.type === 'tracked_event')).toMatchObject({
			event_time: '2026-01-01T10:00:00+00:00',
			product_name: 'Tent',
			value: 199.5,
		});
		const missing = await call(sandbox, 'POST', `${newsletter()}/purchases`, { token, json: { email: 'x@example.com' } });
		expectAweberError(missing, 400, 'BadRequestError', /ip_address/);
	});
});

describe('request log', () => {
	it('records method, path, query, status, account and body, and journals each request to a file', async () => {
		sandbox.clearRequests();
		await call(sandbox, 'GET', `${newsletter()}/subscribers`, { token, query: { 'ws.size': '5' }, headers: { 'user-agent': 'jest-test' } });
		await call(sandbox, 'POST', `${newsletter()}/subscribers`, { token, json: { email: 'logged@example.com' } });
		await call(sandbox, 'GET', accountPath(sandbox), { token: 'bad' });
		await fetch(`${sandbox.apiBaseUrl}/__sandbox/`);
		const log = sandbox.requests();
		expect(log.map((entry) => [entry.method, entry.path, entry.status, entry.account])).toEqual([
			['GET', '/1.0/accounts/1234567/lists/2001/subscribers', 200, 1234567],
			['POST', '/1.0/accounts/1234567/lists/2001/subscribers', 201, 1234567],
			['GET', '/1.0/accounts/1234567', 401, null],
		]);
		expect(log[0]).toMatchObject({ query: { 'ws.size': '5' }, userAgent: 'jest-test', contentType: null });
		expect(log[1]).toMatchObject({ contentType: 'application/json', body: { email: 'logged@example.com' } });

		const lines = readFileSync(journal, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
		const last = lines[lines.length - 1];
		expect(Object.keys(last).sort()).toEqual(['account', 'contentType', 'method', 'path', 'query', 'status', 'time', 'userAgent']);
		expect(last).toMatchObject({ method: 'GET', path: '/1.0/accounts/1234567', status: 401 });
	});

	it('masks a query-string token in the log', async () => {
		sandbox.clearRequests();
		await call(sandbox, 'GET', accountPath(sandbox), { token, tokenIn: 'query' });
		expect(sandbox.requests()[0].query).toEqual({ access_token: '***' });
	});
});
