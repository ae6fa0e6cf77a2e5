// Transient failures (5xx, dropped connections) and the one write that may be repeated: add subscriber.
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { useAnswerLosingProxy } from '../harness/answerLosingProxy';
import { useTestbed, type AweberTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import type { RequestLogEntry } from '../sandbox/types';
import { PURCHASE_FIELDS } from './email-nodes.helpers';

type Locator = { __rl: true; mode: 'id'; value: string };
const byId = (value: string | number): Locator => ({ __rl: true, mode: 'id', value: String(value) });

const apiCalls = (bed: AweberTestbed): RequestLogEntry[] => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));

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

	it('retries a read whose connection was reset, and n8n\'s log names the failure', async () => {
		bed.sandbox.faults.next(1, 'reset', { pathPrefix: '/1.0/' });
		const logs = recordNodeLogs();
		const result = await getAccount().finally(logs.restore);
		expect(result.status).toBe('success');
		expect(apiCalls(bed).map((entry) => entry.status)).toEqual([0, 200]);
		expect(logs.lines.filter((line) => /^AWeber request failed/.test(line.message)).map((line) => line.message)).toEqual([
			expect.stringMatching(/^AWeber request failed \(ECONNRESET\); retry 1 of 4 in /),
		]);
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

describe('Retries of an idempotent write', () => {
	const bed = useTestbed();
	const account = () => byId(bed.sandbox.seed.accountId);
	const newsletter = () => byId(bed.sandbox.seed.lists.newsletter);
	const company = () => byId(bed.sandbox.seed.customFields.company);
	const draft = () => byId(bed.sandbox.seed.broadcasts.draft);

	it.each([
		['PATCH', 'aWeberCustomField', () => ({ operation: 'update', accountId: account(), listId: newsletter(), customFieldId: company(), updateFields: { name: 'Employer' } })],
		['DELETE', 'aWeberCustomField', () => ({ operation: 'delete', accountId: account(), listId: newsletter(), customFieldId: company() })],
		['PUT', 'aWeberBroadcast', () => ({ operation: 'update', accountId: account(), listId: newsletter(), broadcastId: draft(), updateFields: { subject: 'Again' } })],
	] as const)('sends a %s answered 503 again: AWeber applies it the same way twice', async (method, type, parameters) => {
		bed.sandbox.faults.next(1, '503', { method, pathPrefix: '/1.0/' });
		const result = await bed.harness.runNode({ type, credentialId: bed.credentialId, parameters: parameters() });
		expect(result.status).toBe('success');
		expect(apiCalls(bed).filter((entry) => entry.method === method).map((entry) => entry.status)).toEqual([503, expect.any(Number)]);
		expect(apiCalls(bed).filter((entry) => entry.method === method)[1].status).toBeLessThan(300);
	});
});

describe('Retried add subscriber', () => {
	const bed = useTestbed();
	const losing = useAnswerLosingProxy(bed);

	const addSubscriber = async (email: string, listId = bed.sandbox.seed.lists.empty, output: 'subscriber' | 'summary' = 'subscriber') =>
		await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: losing.viaProxy,
			parameters: { operation: 'create', accountId: byId(bed.sandbox.seed.accountId), listId: byId(listId), email, output, additionalFields: { name: 'Ada', tags: ['new'] } },
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
			losing.proxy.loseAnswers(1, 'POST', subscribersPath(), how);
			const logs = recordNodeLogs();
			const result = await addSubscriber(`lost-${how}@example.com`).finally(logs.restore);

			expect(result.status).toBe('success');
			expect(logs.lines).toContainEqual({
				level: 'info',
				message: `AWeber: a retried add of lost-${how}@example.com was refused as a duplicate; the first attempt had added it, so its subscriber is the result`,
				metadata: { node: 'Node Under Test' },
			});
			expect(result.items).toEqual([expect.objectContaining({ email: `lost-${how}@example.com`, name: 'Ada', self_link: expect.any(String) })]);
			const onList = await subscribersWith(`lost-${how}@example.com`);
			expect(onList).toHaveLength(1);
			expect(result.items[0].id).toBe(onList[0].id);
			const posts = apiCalls(bed).filter((entry) => entry.method === 'POST');
			// Carried out (answer lost), then refused as a duplicate: never two subscribers.
			expect(posts.map((entry) => entry.status)).toEqual([201, 400]);
		},
	);

	it('an add recovered after its lost answer counts as written when a later item fails the run', async () => {
		losing.proxy.loseAnswers(1, 'POST', subscribersPath(), 'reset');
		const result = await bed.harness.runNode(
			{
				type: 'aWeberSubscriber',
				credentialId: losing.viaProxy,
				parameters: { operation: 'create', accountId: byId(bed.sandbox.seed.accountId), listId: byId('={{ $json.list }}'), email: '={{ $json.email }}' },
			},
			[
				{ email: 'recovered@example.com', list: bed.sandbox.seed.lists.empty },
				// Already on the newsletter list: refused, and the run stops.
				{ email: 'ada.lovelace@example.com', list: bed.sandbox.seed.lists.newsletter },
			],
		);
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/already subscribed/);
		expect(result.error?.description).toContain('1 item was written to AWeber in this run: item 0.');
	});

	it('an Email with spaces around it, sent trimmed, is looked for trimmed: the lost add is still recovered', async () => {
		losing.proxy.loseAnswers(1, 'POST', subscribersPath(), 'reset');
		const result = await addSubscriber('  lost-spaces@example.com\n');

		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: 'lost-spaces@example.com', name: 'Ada' })]);
		expect(await subscribersWith('lost-spaces@example.com')).toHaveLength(1);
		const find = apiCalls(bed).find((entry) => entry.method === 'GET' && entry.query['ws.op'] === 'find');
		expect(find?.query.email).toBe('lost-spaces@example.com');
	});

	it('in a bulk run, answers lost after AWeber acted cost neither a subscriber nor a duplicate', async () => {
		losing.proxy.loseAnswers(3, 'POST', subscribersPath(), 'reset');
		const input = Array.from({ length: 30 }, (_, index) => ({ email: `bulk-lost-${index}@example.com` }));
		const result = await bed.harness.runNode(
			{
				type: 'aWeberSubscriber',
				credentialId: losing.viaProxy,
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

	it('when the find that looks for the lost add loses its connection, it is asked again (a read): the subscriber is the result', async () => {
		losing.proxy.loseAnswers(1, 'POST', subscribersPath(), 'reset');
		bed.sandbox.faults.next(1, 'reset', { method: 'GET', pathPrefix: `/1.0/accounts/${bed.sandbox.seed.accountId}${subscribersPath()}` });
		const result = await addSubscriber('lost-twice@example.com');

		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: 'lost-twice@example.com' })]);
		expect(await subscribersWith('lost-twice@example.com')).toHaveLength(1);
	});

	it.each([
		['no subscriber', { entries: [], start: 0 }],
		['a subscriber without a self_link', { entries: [{ id: 1, email: 'lost-find@example.com', subscribed_at: '2999-01-01T00:00:00Z' }], start: 0 }],
		['no page', { status: 'ok' }],
	])('when the retry is refused as a duplicate and AWeber\'s find answers %s, the refusal stands', async (_what, body) => {
		losing.proxy.loseAnswers(1, 'POST', subscribersPath(), 'reset');
		bed.sandbox.faults.next(1, 'answer', { body, method: 'GET', pathPrefix: `/1.0/accounts/${bed.sandbox.seed.accountId}${subscribersPath()}` });
		const result = await addSubscriber('lost-find@example.com');

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/already subscribed/);
		expect(apiCalls(bed).map((entry) => `${entry.method} ${entry.status} ${entry.query['ws.op'] ?? ''}`)).toEqual([
			'POST 201 ',
			'POST 400 ',
			'GET 200 find',
		]);
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

	it('when AWeber added the subscriber but the answer was lost, Output "Request Summary" also yields the added subscriber', async () => {
		losing.proxy.loseAnswers(1, 'POST', subscribersPath(), '500');
		const result = await addSubscriber('lost-summary@example.com', bed.sandbox.seed.lists.empty, 'summary');
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: 'lost-summary@example.com' })]);
		expect(await subscribersWith('lost-summary@example.com')).toHaveLength(1);
	});

	it.each(['subscriber', 'summary'] as const)(
		'an address already on the list whose first add was answered 503 before AWeber acted fails as "already subscribed" (Output %s)',
		async (output) => {
			const newsletter = bed.sandbox.seed.lists.newsletter;
			const [before] = (await subscribersWith('ada.lovelace@example.com', newsletter)) as IDataObject[];
			expect(before).toBeDefined();
			bed.sandbox.faults.next(1, '503', { pathPrefix: `/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${newsletter}/subscribers` });

			const result = await addSubscriber('ada.lovelace@example.com', newsletter, output);

			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(/already subscribed/);
			expect(result.error?.description).toMatch(/already on the list/);
			const posts = apiCalls(bed).filter((entry) => entry.method === 'POST');
			expect(posts.map((entry) => entry.status)).toEqual([503, 400]);
			// The subscriber AWeber had is untouched, and nothing claims the new name or tag.
			const [after] = await subscribersWith('ada.lovelace@example.com', newsletter);
			expect(after).toMatchObject({ id: before.id, name: before.name, tags: before.tags });
		},
	);
});

describe('A lost answer to a write that cannot be repeated', () => {
	const bed = useTestbed();
	const losing = useAnswerLosingProxy(bed);

	const scope = () => ({ accountId: byId(bed.sandbox.seed.accountId), listId: byId(bed.sandbox.seed.lists.newsletter) });

	it.each([
		['500', 'HTTP 500: An internal error occurred.', /\nAWeber error type: InternalServerError\nHTTP status: 500$/],
		['reset', 'ECONNRESET: The connection to the server was closed unexpectedly', /did not send it again, so that it is not done twice\.$/],
	] as const)('Track Purchase (%s): says the purchase may have been recorded and where to check, without resending', async (how, answer, ending) => {
		losing.proxy.loseAnswers(1, 'POST', '/purchases', how);
		const result = await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: losing.viaProxy,
			parameters: {
				...PURCHASE_FIELDS,
				...scope(),
				email: 'buyer@example.com',
			},
		});

		expect(result.status).toBe('error');
		// The message names what came instead of the answer (AWeber's status and words, or the connection's failure);
		// the description ends with what is known of AWeber's answer.
		expect(result.error?.message).toMatch(/^The purchase may have been recorded, but AWeber's answer was lost \(/);
		expect(result.error?.message).toContain(`lost (${answer}`);
		expect(result.error?.description).toMatch(ending);
		expect(result.error?.description).toMatch(/Check the buyer's activity in AWeber/);
		expect(result.error?.description).toMatch(/did not send it again/);
		// AWeber did record it, once.
		expect(apiCalls(bed).filter((entry) => entry.method === 'POST').map((entry) => entry.status)).toEqual([202]);
	});

	it('Broadcast Create (connection reset): says the draft may exist and where to check, without resending', async () => {
		losing.proxy.loseAnswers(1, 'POST', '/broadcasts', 'reset');
		const result = await bed.harness.runNode({
			type: 'aWeberBroadcast',
			credentialId: losing.viaProxy,
			parameters: { operation: 'create', ...scope(), subject: 'Spring sale', bodyText: 'Hello' },
		});

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/^The draft broadcast may have been created, but AWeber's answer was lost \(ECONNRESET/);
		expect(result.error?.description).toMatch(/Check the list's drafts/);
		// AWeber made the draft, once.
		expect(apiCalls(bed).filter((entry) => entry.method === 'POST').map((entry) => entry.status)).toEqual([200]);
	});
});
