// Transient failures (5xx, dropped connections) and the one write that may be repeated: add subscriber.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { sandboxCredentialData, startTestbed, useTestbed, type AweberTestbed } from '../harness/aweber';
import type { RequestLogEntry } from '../sandbox/types';

type Locator = { __rl: true; mode: 'id'; value: string };
const byId = (value: string | number): Locator => ({ __rl: true, mode: 'id', value: String(value) });

const apiCalls = (bed: AweberTestbed): RequestLogEntry[] => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));

/**
 * A pass-through proxy in front of the sandbox that can lose AWeber's answer AFTER the sandbox carried the
 * request out (the sandbox's own faults strike before it acts): "processed, then the connection dropped"
 * or "processed, then a 500", the case where a retried add meets AWeber's duplicate refusal.
 */
class AnswerLosingProxy {
	private server!: Server;

	private losses: Array<{ method: string; pathEnd: string; remaining: number; how: 'reset' | '500' }> = [];

	url = '';

	constructor(private readonly upstream: string) {}

	async start(): Promise<void> {
		this.server = createServer((incoming, outgoing) => {
			void (async () => {
				const body = await readBody(incoming);
				const headers = { ...incoming.headers };
				delete headers.host;
				delete headers.connection;
				let answer;
				let answerBody: Buffer;
				try {
					answer = await request(`${this.upstream}${incoming.url}`, {
						method: incoming.method as 'GET',
						headers,
						body: body.length > 0 ? body : undefined,
					});
					answerBody = Buffer.from(await answer.body.arrayBuffer());
				} catch {
					// The sandbox dropped the connection (its own 'reset' fault): drop the client's too.
					incoming.socket.destroy();
					return;
				}
				const loss = this.losses.find(
					(candidate) => candidate.remaining > 0 && candidate.method === incoming.method && incoming.url?.split('?')[0].endsWith(candidate.pathEnd),
				);
				if (loss) {
					loss.remaining--;
					if (loss.how === 'reset') {
						incoming.socket.destroy();
						return;
					}
					outgoing.writeHead(500, { 'content-type': 'application/json' });
					outgoing.end(JSON.stringify({ error: { status: 500, type: 'InternalServerError', message: 'An internal error occurred.' } }));
					return;
				}
				// A reverse proxy answers with its own origin in links, as AWeber's are all under its API origin
				// (the node refuses to send the token to any other origin).
				const relink = (text: string) => text.split(this.upstream).join(this.url);
				const passed: Record<string, string | string[]> = {};
				for (const [name, value] of Object.entries(answer.headers)) {
					if (value === undefined || ['transfer-encoding', 'connection', 'keep-alive', 'content-length'].includes(name)) continue;
					passed[name] = Array.isArray(value) ? value.map(relink) : relink(value);
				}
				outgoing.writeHead(answer.statusCode, passed);
				outgoing.end(relink(answerBody.toString('utf8')));
			})();
		});
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** The next `count` requests whose path ends with `pathEnd` are carried out, then their answer is lost. */
	loseAnswers(count: number, method: string, pathEnd: string, how: 'reset' | '500'): void {
		this.losses.push({ method, pathEnd, remaining: count, how });
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of incoming) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

describe('Retries of transient failures', () => {
	const bed = useTestbed();

	const getAccount = async (items: IDataObject[] = [{}]) =>
		await bed.harness.runNode(
			{ type: 'aWeberAccount', credentialId: bed.credentialId, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
			items,
		);

	it('retries a burst of 503s and every item succeeds', async () => {
		bed.sandbox.faults.next(3, '503', { pathPrefix: '/1.0/' });
		const result = await getAccount([{}, {}, {}, {}, {}]);
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(5);
		const statuses = apiCalls(bed).map((entry) => entry.status);
		expect(statuses.filter((status) => status === 503)).toHaveLength(3);
		expect(statuses.filter((status) => status === 200)).toHaveLength(5);
	});

	it('retries a read whose connection was reset', async () => {
		bed.sandbox.faults.next(1, 'reset', { pathPrefix: '/1.0/' });
		const result = await getAccount();
		expect(result.status).toBe('success');
		expect(apiCalls(bed).map((entry) => entry.status)).toEqual([0, 200]);
	});

	it('gives up after its retries and reports AWeber\'s own error', async () => {
		bed.sandbox.faults.next(20, '503', { pathPrefix: '/1.0/' });
		const result = await getAccount();
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Service temporarily unavailable. Please try again later.');
		expect(result.error?.description).toMatch(/ServiceUnavailableError/);
		// The first attempt and four retries.
		expect(apiCalls(bed)).toHaveLength(5);
	});

	it('does not repeat a write that AWeber cannot recognise as a repeat (create custom field)', async () => {
		bed.sandbox.faults.next(1, '503', { pathPrefix: '/1.0/' });
		const result = await bed.harness.runNode({
			type: 'aWeberCustomField',
			credentialId: bed.credentialId,
			parameters: {
				operation: 'create',
				accountId: byId(bed.sandbox.seed.accountId),
				listId: byId(bed.sandbox.seed.lists.empty),
				name: 'Favourite Colour',
			},
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/temporarily unavailable/);
		expect(apiCalls(bed).map((entry) => `${entry.method} ${entry.status}`)).toEqual(['POST 503']);
	});
});

describe('Retried add subscriber', () => {
	let bed: AweberTestbed;
	let proxy: AnswerLosingProxy;
	let viaProxy: string;
	beforeAll(async () => {
		bed = await startTestbed();
		proxy = new AnswerLosingProxy(bed.sandbox.apiBaseUrl);
		await proxy.start();
		viaProxy = bed.harness.addCredential({ ...sandboxCredentialData(bed.sandbox), apiBaseUrl: proxy.url });
	});
	afterAll(async () => {
		await proxy.stop();
		await bed.stop();
	});
	beforeEach(() => {
		bed.sandbox.reset();
		bed.sandbox.clearRequests();
	});

	const addSubscriber = async (email: string, listId = bed.sandbox.seed.lists.empty) =>
		await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: viaProxy,
			parameters: { operation: 'create', accountId: byId(bed.sandbox.seed.accountId), listId: byId(listId), email, additionalFields: { name: 'Ada' } },
		});

	const subscribersWith = async (email: string, listId = bed.sandbox.seed.lists.empty) => {
		const token = bed.sandbox.issueToken();
		const answer = await request(
			`${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${listId}/subscribers?ws.op=find&email=${encodeURIComponent(email)}`,
			{ headers: { authorization: `Bearer ${token.access_token}` } },
		);
		return ((await answer.body.json()) as { entries: IDataObject[] }).entries;
	};

	const subscribersPath = () => `/lists/${bed.sandbox.seed.lists.empty}/subscribers`;

	it.each(['reset', '500'] as const)(
		'when AWeber added the subscriber but the answer was lost (%s), the retry\'s duplicate refusal yields that subscriber',
		async (how) => {
			proxy.loseAnswers(1, 'POST', subscribersPath(), how);
			const result = await addSubscriber(`lost-${how}@example.com`);

			expect(result.status).toBe('success');
			expect(result.items).toEqual([expect.objectContaining({ email: `lost-${how}@example.com`, name: 'Ada', self_link: expect.any(String) })]);
			const onList = await subscribersWith(`lost-${how}@example.com`);
			expect(onList).toHaveLength(1);
			expect(result.items[0].id).toBe(onList[0].id);
			const posts = apiCalls(bed).filter((entry) => entry.method === 'POST');
			// Carried out (answer lost), then refused as a duplicate: never two subscribers.
			expect(posts.map((entry) => entry.status)).toEqual([201, 400]);
		},
	);

	it('in a bulk run, answers lost after AWeber acted cost neither a subscriber nor a duplicate', async () => {
		proxy.loseAnswers(3, 'POST', subscribersPath(), 'reset');
		const input = Array.from({ length: 30 }, (_, index) => ({ email: `bulk-lost-${index}@example.com` }));
		const result = await bed.harness.runNode(
			{
				type: 'aWeberSubscriber',
				credentialId: viaProxy,
				parameters: { operation: 'create', accountId: byId(bed.sandbox.seed.accountId), listId: byId(bed.sandbox.seed.lists.empty), email: '={{ $json.email }}' },
			},
			input,
		);
		expect(result.status).toBe('success');
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(input.map((item) => item.email));
		const posts = apiCalls(bed).filter((entry) => entry.method === 'POST');
		expect(posts.filter((entry) => entry.status === 201)).toHaveLength(30);
		expect(posts.filter((entry) => entry.status === 400)).toHaveLength(3);
	});

	it('when the connection dropped before AWeber acted, the retry adds the subscriber', async () => {
		bed.sandbox.faults.next(1, 'reset', { pathPrefix: `/1.0/accounts/${bed.sandbox.seed.accountId}${subscribersPath()}` });
		const result = await addSubscriber('never-arrived@example.com');
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: 'never-arrived@example.com' })]);
		expect(await subscribersWith('never-arrived@example.com')).toHaveLength(1);
	});

	it('still reports a duplicate refusal when the address was on the list before (no retry involved)', async () => {
		const token = bed.sandbox.issueToken();
		const page = await request(
			`${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${bed.sandbox.seed.lists.newsletter}/subscribers/${bed.sandbox.seed.subscribers.subscribed}`,
			{ headers: { authorization: `Bearer ${token.access_token}` } },
		);
		const onNewsletter = (await page.body.json()) as IDataObject;
		bed.sandbox.clearRequests();

		const result = await addSubscriber(String(onNewsletter.email), bed.sandbox.seed.lists.newsletter);
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/already subscribed/);
		expect(apiCalls(bed).map((entry) => `${entry.method} ${entry.status}`)).toEqual(['POST 400']);
	});
});
