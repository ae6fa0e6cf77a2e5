// Answers AWeber never promised (a redirect to another host, a 200 that is not the resource, a page without
// `entries`, links that loop, an absurd `total_size`), played by the sandbox's fault control plane, through the nodes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, ILoadOptionsFunctions, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import { PACKAGE_PREFIX } from '../harness';
import { n8nCoreMajor } from '../harness/n8nVersion';
import { useTestbed } from '../harness/aweber';
import { startWebhookReceiver } from '../harness/webhook';
import { apiCalls, byId, listPath, newsletterScope, run } from './email-nodes.helpers';

/** n8n-core 2.x keeps an HTTP error's headers (a redirect's Location); 1.x does not, so there every redirect is refused. */
const keepsRedirectTarget = n8nCoreMajor >= 2;

const bed = useTestbed({ credential: { webhookVerificationSecret: 'c2FuZGJveC12ZXJpZmljYXRpb24ta2V5' } });

/** A listener on another loopback port: it must never receive anything. */
let foreign: { url: string; received: string[]; server: Server };
beforeAll(async () => {
	const received: string[] = [];
	const server = createServer((request, response) => {
		received.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
		response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ entries: [], id: 1, self_link: 'x' }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	foreign = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
});
afterAll(async () => {
	foreign.server.closeAllConnections();
	await new Promise<void>((resolve) => foreign.server.close(() => resolve()));
});
beforeEach(() => foreign.received.splice(0));

async function callSearch(type: string, method: string, parameters: IDataObject, ...args: unknown[]) {
	const nodeType = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}${type}`);
	const node = bed.harness.toNode({ type, credentialId: bed.credentialId, parameters }, 'Node Under Test');
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
	const additionalData = { credentialsHelper: bed.harness.credentials } as unknown as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	const fn = nodeType.methods?.listSearch?.[method] as unknown as (this: ILoadOptionsFunctions, ...args: unknown[]) => Promise<unknown>;
	return await fn.call(context, ...args);
}

const accountPath = () => `/1.0/accounts/${bed.sandbox.seed.accountId}`;
const subscribersPath = (listId?: number) => `${listPath(bed, listId)}/subscribers`;
const bulk = () => bed.sandbox.seed.lists.bulk;
const grace = () => bed.sandbox.seed.subscribers.subscribed + 1;
const graceFields = { Company: 'Cobol Works', Plan: 'pro', Birthday: '1961-02-11' };

describe('A redirect never carries the token away', () => {
	it('Account Get: a 307 to another host is refused, naming the redirect; that host receives nothing', async () => {
		bed.sandbox.faults.next(1, 'redirect', { status: 307, location: `${foreign.url}${accountPath()}`, pathPrefix: accountPath() });
		const result = await run(bed, 'aWeberAccount', { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Refused to follow a redirect (HTTP 307) from AWeber');
		expect(result.error?.description).toContain(
			keepsRedirectTarget
				? `AWeber's answer to GET ${accountPath()} was a redirect (HTTP 307) to ${foreign.url}, which is not this credential's AWeber API`
				: `AWeber's answer to GET ${accountPath()} was a redirect (HTTP 307); n8n did not pass on its target`,
		);
		expect(foreign.received).toEqual([]);
	});

	it('Subscriber Create: a 307 to another host is refused; neither the body nor the token goes there', async () => {
		bed.sandbox.faults.next(1, 'redirect', { status: 307, location: `${foreign.url}/collect`, method: 'POST' });
		const result = await run(bed, 'aWeberSubscriber', { operation: 'create', ...newsletterScope(bed), email: 'redirected@example.com' });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Refused to follow a redirect (HTTP 307) from AWeber');
		expect(foreign.received).toEqual([]);
		expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 307']);
	});

	it('a picker page: a 308 to another port is refused', async () => {
		bed.sandbox.faults.next(1, 'redirect', { status: 308, location: `${foreign.url}${accountPath()}/lists`, pathPrefix: `${accountPath()}/lists` });
		await expect(callSearch('aWeberSubscriber', 'searchLists', { ...newsletterScope(bed), operation: 'get' })).rejects.toThrow(
			'Refused to follow a redirect (HTTP 308) from AWeber',
		);
		expect(foreign.received).toEqual([]);
	});

	(keepsRedirectTarget ? it : it.skip)('a redirect that stays on the API is followed through the origin check, however its scheme is spelled', async () => {
		const sandbox = new URL(bed.sandbox.apiBaseUrl);
		bed.sandbox.faults.next(1, 'redirect', { status: 302, location: `HTTP://${sandbox.host}${accountPath()}?moved=1`, pathPrefix: accountPath() });
		const result = await run(bed, 'aWeberAccount', { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) });
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ id: bed.sandbox.seed.accountId })]);
		expect(apiCalls(bed).map((call) => [call.path, call.status, call.query])).toEqual([
			[accountPath(), 302, {}],
			[accountPath(), 200, { moved: '1' }],
		]);
	});

	it('a Location header spelled HTTP://<api origin> is read as the link it is, not as a path', async () => {
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { upperCaseLocationScheme: true }, method: 'POST' });
		const result = await run(bed, 'aWeberSubscriber', { operation: 'create', ...newsletterScope(bed), email: 'capitals@example.com', simplify: false });
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: 'capitals@example.com' })]);
		expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 201', 'GET 200']);
	});

	it('a redirect loop on the API ends after a few hops', async () => {
		bed.sandbox.faults.next(10, 'redirect', { status: 307, location: `${bed.sandbox.apiBaseUrl}${accountPath()}`, pathPrefix: accountPath() });
		const result = await run(bed, 'aWeberAccount', { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(keepsRedirectTarget ? 'Refused to follow more than 3 redirects from AWeber' : 'Refused to follow a redirect (HTTP 307) from AWeber');
		expect(apiCalls(bed).length).toBeLessThanOrEqual(4);
	});
});

describe('An answer that is not the resource is refused before anything acts on it', () => {
	it.each([
		['Update (name only), a JSON status', 'update', { status: 'ok' }],
		['Update (name only), an HTML maintenance page', 'update', '<html><body>Down for maintenance</body></html>'],
		['Unsubscribe, a JSON status', 'unsubscribe', { status: 'ok' }],
	])('%s: no PATCH is sent and the custom fields stay', async (_case, operation, body) => {
		bed.sandbox.faults.next(1, 'answer', { body, method: 'GET', pathPrefix: `${subscribersPath()}/${grace()}` });
		const result = await run(bed, 'aWeberSubscriber', {
			operation,
			...newsletterScope(bed),
			subscriberId: byId(grace()),
			...(operation === 'update' ? { updateFields: { name: 'Grace B. Hopper' } } : {}),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`AWeber's answer was unexpected: it is not the subscriber ${grace()}`);
		expect(result.error?.description).toMatch(/changed nothing in AWeber\. This is usually a passing fault at AWeber or in a proxy between n8n and AWeber: run the step again later\.$/);
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
		const after = await run(bed, 'aWeberSubscriber', { operation: 'get', ...newsletterScope(bed), subscriberId: byId(grace()), simplify: false });
		expect(after.items[0]).toMatchObject({ custom_fields: graceFields, status: 'subscribed' });
	});

	it('Update by email: a find answer whose entry is another subscriber is refused', async () => {
		bed.sandbox.faults.next(1, 'answer', {
			body: { entries: [{ id: 1, email: 'someone.else@example.com', self_link: 'x', custom_fields: {} }] },
			method: 'GET',
			pathPrefix: subscribersPath(),
		});
		const result = await run(bed, 'aWeberSubscriber', {
			operation: 'update',
			...newsletterScope(bed),
			subscriberId: { __rl: true, mode: 'email', value: 'grace.hopper@example.com' },
			updateFields: { name: 'Grace B. Hopper' },
		});
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not the subscriber grace.hopper@example.com");
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
	});

	it.each([
		['Get Many', { operation: 'getAll', returnAll: true }],
		['Find', { operation: 'find', filters: { status: 'subscribed' }, returnAll: true }],
	])('%s with Return All: a page without entries is an error, not the end', async (_case, parameters) => {
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { dropEntries: true }, pathPrefix: subscribersPath(bulk()), query: { 'ws.start': '100' } });
		const result = await run(bed, 'aWeberSubscriber', { ...parameters, ...newsletterScope(bed, bulk()) });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(result.error?.description).toContain('a JSON object');
	});

	it.each([
		['Return All', { returnAll: true }],
		['a Limit', { returnAll: false, limit: 5 }],
	])('Get Many with %s: a first answer that is no page is an error, not an item', async (_case, parameters) => {
		bed.sandbox.faults.next(1, 'answer', { body: { status: 'ok' }, method: 'GET', pathPrefix: subscribersPath(bulk()) });
		const result = await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...parameters, ...newsletterScope(bed, bulk()) });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(result.error?.description).toMatch(/^While reading a collection, AWeber answered a JSON object/);
	});

	it.each([
		['an empty JSON array', [], 'a JSON array ([])'],
		['a JSON array of two entries', [{ id: 1 }, { id: 2 }], 'a JSON array ([{"id":1},{"id":2}])'],
	])('List Get Many with Return All: a first answer that is %s is an error, quoted as AWeber sent it', async (_case, body, described) => {
		// No postReceive on this operation: n8n makes an item of each entry of an array answer.
		bed.sandbox.faults.next(1, 'answer', { body, method: 'GET', pathPrefix: `${accountPath()}/lists` });
		const result = await run(bed, 'aWeberList', { operation: 'getAll', returnAll: true, accountId: byId(bed.sandbox.seed.accountId) });
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(result.error?.description).toMatch(new RegExp(`^While reading a collection, AWeber answered ${described.replace(/[[\]{}().]/g, '\\$&')} instead of`));
	});

	it('a picker page without entries is an error, not an empty list', async () => {
		bed.sandbox.faults.next(1, 'answer', { body: { status: 'ok' }, pathPrefix: `${accountPath()}/lists` });
		await expect(callSearch('aWeberSubscriber', 'searchLists', { ...newsletterScope(bed), operation: 'get' })).rejects.toThrow(
			"AWeber's answer was unexpected: it is not a page of an AWeber collection",
		);
	});
});

describe('Collection reads are bounded whatever the links and sizes say', () => {
	it('Find: a next_collection_link pointing to its own page ends the read with an error', async () => {
		bed.sandbox.faults.next(20, 'rewrite', { rewrite: { nextCollectionLink: 'self' }, pathPrefix: subscribersPath(bulk()), query: { 'ws.start': '100' } });
		const result = await run(bed, 'aWeberSubscriber', { operation: 'find', ...newsletterScope(bed, bulk()), filters: { status: 'subscribed' }, returnAll: true });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: its next page is a page already read");
		expect(apiCalls(bed)).toHaveLength(2);
	});

	it('Get Many: a last page linking back to an earlier one ends the read with an error', async () => {
		const pageTwo = `${bed.sandbox.apiBaseUrl}${subscribersPath(bulk())}?ws.size=100&ws.start=100`;
		bed.sandbox.faults.next(10, 'rewrite', { rewrite: { nextCollectionLink: pageTwo }, pathPrefix: subscribersPath(bulk()), query: { 'ws.start': '200' } });
		const result = await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bulk()), returnAll: true });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: its next page is a page already read");
		expect(result.error?.description).toContain(`points back to a page this read already had (${pageTwo}), so the collection would never end.`);
		expect(apiCalls(bed).length).toBeLessThanOrEqual(4);
	});

	it.each([1_000, 1e12])('Get Many: a total_size of %d (250 real) reads the real pages and a few more at most', async (totalSize) => {
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { totalSize }, pathPrefix: subscribersPath(bulk()) });
		const result = await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bulk()), returnAll: true });
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(250);
		expect(new Set(result.items.map((subscriber) => subscriber.id)).size).toBe(250);
		// The first page, the two real further pages, and at most the three pages read ahead past the end.
		expect(apiCalls(bed).length).toBeLessThanOrEqual(6);
	});
});

describe('IDs are checked everywhere before any request', () => {
	it.each([['..'], ['.'], ['1/../2']])('a picker whose parent list is %s is refused, naming the field', async (listId) => {
		await expect(
			callSearch('aWeberBroadcast', 'searchBroadcasts', { accountId: byId(bed.sandbox.seed.accountId), listId: byId(listId), operation: 'get' }),
		).rejects.toThrow(`The "List" field must be a numeric AWeber ID, not "${listId}"`);
		expect(apiCalls(bed)).toEqual([]);
	});

	it("the AWeber Webhook Trigger's activation refuses a 30-digit list ID", async () => {
		const receiver = await startWebhookReceiver(bed.harness, {
			type: 'aWeberSubscriberTrigger',
			credentialId: bed.credentialId,
			parameters: { events: ['subscriber.added'], filterByList: true, accountId: byId(bed.sandbox.seed.accountId), listId: byId('9'.repeat(30)) },
		});
		try {
			await expect(receiver.lifecycle('create')).rejects.toThrow(/^The "List" field must be a numeric AWeber ID, at most 20 digits long/);
		} finally {
			await receiver.close();
		}
		expect(apiCalls(bed)).toEqual([]);
	});
});
