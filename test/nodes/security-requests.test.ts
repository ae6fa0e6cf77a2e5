// Attacks on the request path: links that would carry the access token to another origin, IDs too long for
// AWeber, and a failing bulk run that would keep writing.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, ILoadOptionsFunctions, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';
import { request } from 'undici';

import { PACKAGE_PREFIX } from '../harness';
import { sandboxCredentialData, useTestbed, type AweberTestbed } from '../harness/aweber';
import { apiCalls, byId, listPath, newsletterScope } from './email-nodes.helpers';
import { editorRefusalMessage } from '../harness/n8nVersion';
import { MAX_CONCURRENT_REQUESTS } from '../../nodes/shared/rateLimiter';

/** A loopback server that plays whatever `answer` says, and records every request (with its Authorization). */
class LoopbackServer {
	readonly received: Array<{ method: string; url: string; authorization?: string }> = [];

	private server!: Server;

	url = '';

	constructor(private readonly answer: (incoming: IncomingMessage, body: Buffer, self: LoopbackServer) => Promise<{ status: number; headers?: Record<string, string>; body?: string }>) {}

	async start(): Promise<this> {
		this.server = createServer((incoming, outgoing) => {
			void (async () => {
				const chunks: Buffer[] = [];
				for await (const chunk of incoming) chunks.push(chunk as Buffer);
				this.received.push({ method: incoming.method ?? '', url: incoming.url ?? '', authorization: incoming.headers.authorization });
				const reply = await this.answer(incoming, Buffer.concat(chunks), this);
				outgoing.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
				outgoing.end(reply.body ?? '');
			})();
		});
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

/** Forwards to the sandbox, answering with its own origin in links as a reverse proxy would. */
async function forward(upstream: string, self: LoopbackServer, incoming: IncomingMessage, body: Buffer) {
	const headers = { ...incoming.headers };
	delete headers.host;
	delete headers.connection;
	const answer = await request(`${upstream}${incoming.url}`, {
		method: incoming.method as 'GET',
		headers,
		body: body.length > 0 ? body : undefined,
	});
	const text = (await answer.body.text()).split(upstream).join(self.url);
	const passed: Record<string, string> = {};
	for (const [name, value] of Object.entries(answer.headers)) {
		if (typeof value === 'string' && !['transfer-encoding', 'connection', 'keep-alive', 'content-length'].includes(name)) {
			passed[name] = value.split(upstream).join(self.url);
		}
	}
	return { status: answer.statusCode, headers: passed, body: text };
}

const bed = useTestbed();

async function callSearch(type: string, method: string, parameters: IDataObject, credentialId: string, ...args: unknown[]) {
	const nodeType = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}${type}`);
	const node = bed.harness.toNode({ type, credentialId, parameters }, 'Node Under Test');
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
	const additionalData = { credentialsHelper: bed.harness.credentials } as unknown as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	const fn = nodeType.methods?.listSearch?.[method] as unknown as (this: ILoadOptionsFunctions, ...args: unknown[]) => Promise<unknown>;
	return await fn.call(context, ...args);
}

describe('The access token never leaves the credential\'s API origin', () => {
	let harvester: LoopbackServer;
	beforeAll(async () => {
		harvester = await new LoopbackServer(async () => ({ status: 200, body: JSON.stringify({ entries: [] }) })).start();
	});
	afterAll(async () => await harvester.stop());
	beforeEach(() => harvester.received.splice(0));

	const searches: Array<[string, string, () => IDataObject]> = [
		['aWeberSubscriber', 'searchLists', () => ({ ...newsletterScope(bed), operation: 'get' })],
		['aWeberSubscriber', 'searchSubscribers', () => ({ ...newsletterScope(bed), operation: 'get' })],
		['aWeberBroadcast', 'searchBroadcasts', () => ({ ...newsletterScope(bed), operation: 'get' })],
		['aWeberCustomField', 'searchCustomFields', () => ({ ...newsletterScope(bed), operation: 'get' })],
	];

	it.each(searches)('%s %s refuses a pagination token on another host before any request', async (type, method, parameters) => {
		const token = `${harvester.url}/1.0/accounts/1/lists?ws.start=100&ws.size=100`;
		await expect(callSearch(type, method, parameters(), bed.credentialId, undefined, token)).rejects.toMatchObject({
			message: `Refused to send the AWeber credential to ${harvester.url}`,
			description: expect.stringContaining('The pagination token sent by the editor points to'),
		});
		expect(harvester.received).toEqual([]);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('refuses a pagination token that only looks like the API (same host, other port or scheme)', async () => {
		const sandboxUrl = new URL(bed.sandbox.apiBaseUrl);
		for (const token of [`https://${sandboxUrl.host}/1.0/accounts`, `${harvester.url}@${sandboxUrl.host}/1.0/accounts`]) {
			await expect(callSearch('aWeberSubscriber', 'searchLists', { operation: 'get' }, bed.credentialId, undefined, token)).rejects.toThrow(
				/Refused to send the AWeber credential/,
			);
		}
		expect(harvester.received).toEqual([]);
	});

	it('refuses a pagination token on the API\'s host that carries a user name or a password', async () => {
		const sandboxUrl = new URL(bed.sandbox.apiBaseUrl);
		for (const userinfo of ['harvester', ':secret']) {
			const token = `${sandboxUrl.protocol}//${userinfo}@${sandboxUrl.host}/1.0/accounts`;
			await expect(callSearch('aWeberSubscriber', 'searchLists', { ...newsletterScope(bed), operation: 'get' }, bed.credentialId, undefined, token)).rejects.toThrow(
				/Refused to send the AWeber credential/,
			);
		}
		expect(apiCalls(bed)).toEqual([]);
	});

	it('refuses a pagination token that is not a readable link, naming its first 80 characters', async () => {
		const token = `http://[not-a-host]/${'x'.repeat(100)}`;
		await expect(callSearch('aWeberSubscriber', 'searchLists', { ...newsletterScope(bed), operation: 'get' }, bed.credentialId, undefined, token)).rejects.toMatchObject({
			message: `Refused to send the AWeber credential to "${token.slice(0, 80)}"`,
			description: expect.stringMatching(/^The pagination token sent by the editor points to "http:\/\/\[not-a-host\]\/x+", .* The request was not sent\./),
		});
		expect(apiCalls(bed)).toEqual([]);
	});

	it('reads a pagination token that is a path as a path under the API, even with a link in its query', async () => {
		const token = `/accounts/${bed.sandbox.seed.accountId}/lists?ws.start=0&ws.size=100&from=http://elsewhere.example`;
		const page = (await callSearch('aWeberSubscriber', 'searchLists', { ...newsletterScope(bed), operation: 'get' }, bed.credentialId, undefined, token)) as {
			results: unknown[];
		};
		expect(page.results.length).toBeGreaterThan(0);
		expect(apiCalls(bed).map((entry) => entry.path)).toEqual([`/1.0/accounts/${bed.sandbox.seed.accountId}/lists`]);
	});

	describe('an API Base URL with a path (AWeber behind a proxy at /aweber)', () => {
		let proxy: LoopbackServer;
		let viaProxy: string;
		beforeAll(async () => {
			// Serves the API under /aweber: its links, as AWeber's behind such a proxy, start with the proxy's /aweber.
			proxy = await new LoopbackServer(async (incoming, body, self) => {
				if (!incoming.url?.startsWith('/aweber/')) return { status: 404, body: JSON.stringify({ error: { status: 404, message: 'Not Found' } }) };
				incoming.url = incoming.url.slice('/aweber'.length);
				return await forward(bed.sandbox.apiBaseUrl, { url: `${self.url}/aweber` } as LoopbackServer, incoming, body);
			}).start();
			// Written with a trailing slash, as users paste it.
			viaProxy = bed.harness.addCredential({ ...sandboxCredentialData(bed.sandbox), apiBaseUrl: `${proxy.url}/aweber/` });
		});
		afterAll(async () => await proxy.stop());
		beforeEach(() => proxy.received.splice(0));

		it('Return All follows the next page links under that path', async () => {
			const parameters = { operation: 'getAll', ...newsletterScope(bed, bed.sandbox.seed.lists.bulk), returnAll: true };
			const direct = await bed.harness.runNode({ type: 'aWeberSubscriber', credentialId: bed.credentialId, parameters });
			const proxied = await bed.harness.runNode({ type: 'aWeberSubscriber', credentialId: viaProxy, parameters });
			expect(proxied.status).toBe('success');
			expect(proxied.items.map((item) => item.id)).toEqual(direct.items.map((item) => item.id));
			const pages = proxy.received.filter((entry) => entry.url.includes('/subscribers'));
			expect(pages.length).toBeGreaterThan(1);
			expect(pages.every((entry) => entry.url.startsWith('/aweber/1.0/'))).toBe(true);
		});

		it('refuses a link on the proxy\'s host outside that path', async () => {
			for (const token of [`${proxy.url}/1.0/accounts`, `${proxy.url}/aweberx/1.0/accounts`]) {
				await expect(callSearch('aWeberSubscriber', 'searchLists', { ...newsletterScope(bed), operation: 'get' }, viaProxy, undefined, token)).rejects.toThrow(
					/Refused to send the AWeber credential/,
				);
			}
			expect(proxy.received).toEqual([]);
		});
	});

	it('still follows the API\'s own next page link', async () => {
		const bulkList = { ...newsletterScope(bed, bed.sandbox.seed.lists.bulk), operation: 'get' };
		const first = (await callSearch('aWeberSubscriber', 'searchSubscribers', bulkList, bed.credentialId)) as {
			paginationToken?: string;
		};
		expect(first.paginationToken).toContain(bed.sandbox.apiBaseUrl);
		const second = (await callSearch('aWeberSubscriber', 'searchSubscribers', bulkList, bed.credentialId, undefined, first.paginationToken)) as {
			results: unknown[];
		};
		expect(second.results.length).toBeGreaterThan(0);
	});

	describe('links in AWeber\'s answers', () => {
		let hostileApi: LoopbackServer;
		let hostileCredential: string;
		beforeAll(async () => {
			// An API that answers like AWeber but hands out links to the harvester.
			hostileApi = await new LoopbackServer(async (incoming, body, self) => {
				const answer = await forward(bed.sandbox.apiBaseUrl, self, incoming, body);
				if (answer.headers.location) answer.headers.location = answer.headers.location.replace(self.url, harvester.url);
				if (answer.headers.link) answer.headers.link = answer.headers.link.split(self.url).join(harvester.url);
				answer.body = answer.body.replace(/"next_collection_link": ?"[^"]*"/g, `"next_collection_link":"${harvester.url}/1.0/next?ws.start=100&ws.size=100"`);
				return answer;
			}).start();
			hostileCredential = bed.harness.addCredential({ ...sandboxCredentialData(bed.sandbox), apiBaseUrl: hostileApi.url });
		});
		afterAll(async () => await hostileApi.stop());

		it('refuses a Location header on another host: the subscriber is added, the token is not sent there', async () => {
			const result = await bed.harness.runNode({
				type: 'aWeberSubscriber',
				credentialId: hostileCredential,
				parameters: { operation: 'create', ...newsletterScope(bed), email: 'located@example.com' },
			});
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(`Refused to send the AWeber credential to ${harvester.url}`);
			expect(result.error?.description).toContain("The Location header of AWeber's answer points to");
			expect(harvester.received).toEqual([]);
		});

		it('refuses a next_collection_link on another host', async () => {
			const result = await bed.harness.runNode({
				type: 'aWeberSubscriber',
				credentialId: hostileCredential,
				parameters: { operation: 'getAll', ...newsletterScope(bed, bed.sandbox.seed.lists.bulk), returnAll: true },
			});
			expect(result.status).toBe('error');
			expect(result.error?.description).toContain('The next_collection_link (or Link header) of an AWeber page points to');
			expect(harvester.received).toEqual([]);
		});

		it('refuses a Link header (the 2.0-beta link report\'s next page) on another host', async () => {
			const result = await bed.harness.runNode({
				type: 'aWeberBroadcast',
				credentialId: hostileCredential,
				parameters: {
					operation: 'getLinkReport',
					...newsletterScope(bed),
					broadcastId: byId(bed.sandbox.seed.broadcasts.sent),
					linkReportFilter: 'pageviews',
					returnAll: true,
				},
			});
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(`Refused to send the AWeber credential to ${harvester.url}`);
			expect(result.error?.description).toContain('The next_collection_link (or Link header) of an AWeber page points to');
			expect(harvester.received).toEqual([]);
		});
	});
});

describe('IDs too long for AWeber', () => {
	const subscriberUrl = (id: string) => `${bed.sandbox.apiBaseUrl}${listPath(bed)}/subscribers/${id}`;
	it.each([
		['400 digits, by URL', () => ({ __rl: true, mode: 'url', value: subscriberUrl('9'.repeat(400)) })],
		['just above 64 bits, by ID', () => byId('18446744073709551616')],
		['400 digits, by ID from an expression', () => ({ __rl: true, mode: 'id', value: '={{ "9".repeat(400) }}' })],
	])('refuses a subscriber ID of %s before any request, naming the field', async (_case, locator) => {
		const result = await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', ...newsletterScope(bed), subscriberId: locator() },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/^The "Subscriber" field must be a numeric AWeber ID or an email address, at most 20 digits long \(AWeber's IDs fit in 64 bits\), not "\d+/);
		expect(apiCalls(bed)).toEqual([]);
	});

	it('the editor already marks a typed 400-digit ID as not valid', async () => {
		const result = await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', ...newsletterScope(bed), subscriberId: byId('9'.repeat(400)) },
		});
		expect(result.error?.message).toContain(editorRefusalMessage('Not a valid Subscriber ID'));
		expect(apiCalls(bed)).toEqual([]);
	});

	it('accepts the largest 64-bit ID (AWeber answers it is not found)', async () => {
		const result = await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', ...newsletterScope(bed), subscriberId: byId('18446744073709551615') },
		});
		expect(result.status).toBe('error');
		expect(apiCalls(bed).map((entry) => entry.path)).toEqual([`${listPath(bed)}/subscribers/18446744073709551615`]);
	});
});

describe('A failing run stops sending', () => {
	/** In front of the sandbox: from the 51st add on, AWeber is down for good (503). */
	let outage: LoopbackServer;
	let adds = 0;
	/** Each add as the outage saw it: which address, its attempt, when. */
	let posts: Array<{ email: string; attempt: number; at: number }> = [];
	let viaOutage: string;
	beforeAll(async () => {
		outage = await new LoopbackServer(async (incoming, body, self) => {
			if (incoming.method === 'POST') {
				const email = String((JSON.parse(body.toString('utf8')) as IDataObject).email);
				posts.push({ email, attempt: posts.filter((post) => post.email === email).length + 1, at: Date.now() });
			}
			if (incoming.method === 'POST' && ++adds > 50) {
				return { status: 503, body: JSON.stringify({ error: { status: 503, type: 'ServiceUnavailableError', message: 'Service Unavailable' } }) };
			}
			return await forward(bed.sandbox.apiBaseUrl, self, incoming, body);
		}).start();
		// Paced at AWeber's 120 per minute on a 240x clock (a quarter second; the retries' backoff, a 60th of the window,
		// shrinks alike): a run that keeps going sends its 1,300 adds in about 3 s instead of 11. Only the first 50 reach
		// the sandbox (60x: its 120 per second is not reached); what the tests count does not depend on the pace.
		viaOutage = bed.harness.addCredential({ ...sandboxCredentialData(bed.sandbox, { rateLimitWindowSeconds: 0.25 }), apiBaseUrl: outage.url });
	});
	afterAll(async () => await outage.stop());
	beforeEach(() => {
		adds = 0;
		posts = [];
		outage.received.splice(0);
	});

	const bulkAdd = async (testbed: AweberTestbed, continueOnFail: boolean) =>
		await testbed.harness.runNode(
			{
				type: 'aWeberSubscriber',
				credentialId: viaOutage,
				parameters: { operation: 'create', ...newsletterScope(testbed), email: '={{ $json.email }}' },
				...(continueOnFail ? { continueOnFail: true } : {}),
			},
			Array.from({ length: 300 }, (_, index) => ({ email: `bulk-${index}@example.com` })),
		);

	it('with Continue On Fail off, sends nothing for the remaining items once an add failed for good, and says what was written', async () => {
		const result = await bulkAdd(bed, false);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Service Unavailable');
		expect(result.error?.description).toMatch(/\b50 items were written to AWeber in this run: items 0-49\. Nothing was sent for the items after item 50\b/);
		// The first add to fail for good is the first to meet its 5th 503: once its answer came, no add was sent.
		// Counted, not timed (a busy machine delays arrivals): after it, only what was already on its way arrives,
		// at most one request per other slot and that request's retry; a run that kept going sends hundreds.
		const givenUp = posts.findIndex((post) => post.attempt === 5);
		expect(givenUp).toBeGreaterThanOrEqual(0);
		expect(posts.slice(givenUp + 1).length).toBeLessThanOrEqual(2 * (MAX_CONCURRENT_REQUESTS - 1));
		// A run that kept going would have sent 50 + 250 x 5 = 1,300 adds.
		expect(posts.length).toBeLessThan(300);
		expect(new Set(posts.map((post) => post.email)).size).toBeLessThan(150);
	});

	it('with Continue On Fail on, every item gets its own result, as before', async () => {
		const result = await bulkAdd(bed, true);
		expect(result.status).toBe('success');
		const output = result.output('Node Under Test');
		expect(output).toHaveLength(300);
		expect(output.filter((item) => typeof item.json.self_link === 'string')).toHaveLength(50);
		expect(output.filter((item) => item.error?.message === 'Service Unavailable')).toHaveLength(250);
		// Every failing add was tried with its retries.
		expect(outage.received.filter((entry) => entry.method === 'POST')).toHaveLength(50 + 250 * 5);
	});
});
