import type { IHttpRequestOptions, INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { MAX_RATE_LIMIT_WAITS } from '../../nodes/shared/failureDecision';
import type { AweberContext } from '../../nodes/shared/aweberContext';
import { USER_AGENT } from '../../nodes/shared/constants';
import { rateLimiterFor } from '../../nodes/shared/rateLimiter';
import { aweberApiRequest } from '../../nodes/shared/transport';
import { ManualClock } from './manualClock';

interface StubOptions {
	answer: (options: IHttpRequestOptions) => Promise<unknown>;
	requests?: number;
	windowSeconds?: number;
	signal?: AbortSignal;
	executionTimeoutSeconds?: number;
	apiBaseUrl?: string;
	/** The node's reference to its credential (n8n's `node.credentials`); undefined: none chosen. */
	credentialRef?: { id: string; name: string } | null;
	/** Each read of the credential (n8n reads it from its database); the stub's settings when not given. */
	readCredential?: () => Promise<Record<string, unknown>>;
}

/** An n8n context whose HTTP helper is `answer`, with its own credential (so its own rate-limit queue). */
function stubContext(options: StubOptions): AweberContext & { logs: string[]; sent: IHttpRequestOptions[] } {
	const logs: string[] = [];
	const sent: IHttpRequestOptions[] = [];
	const credentialId = `stub-${Math.random().toString(36).slice(2)}`;
	const credentialRef = options.credentialRef === undefined ? { id: credentialId, name: 'stub' } : options.credentialRef;
	const node = { name: 'AWeber Test', ...(credentialRef ? { credentials: { aWeberOAuth2Api: credentialRef } } : {}) } as unknown as INode;
	const record = (message: string) => logs.push(message);
	return {
		logs,
		sent,
		getNode: () => node,
		getCredentials: (async () =>
			options.readCredential
				? await options.readCredential()
				: {
						apiBaseUrl: options.apiBaseUrl ?? 'https://api.aweber.example',
						rateLimitRequests: options.requests ?? 120,
						rateLimitWindowSeconds: options.windowSeconds ?? 0.05,
					}) as unknown as AweberContext['getCredentials'],
		logger: { info: record, warn: record, debug: () => undefined, error: record } as unknown as AweberContext['logger'],
		getExecutionCancelSignal: () => options.signal,
		getWorkflowSettings: () => ({ executionTimeout: options.executionTimeoutSeconds ?? -1 }),
		helpers: {
			httpRequestWithAuthentication: (async (_type: string, requestOptions: IHttpRequestOptions) => {
				sent.push(requestOptions);
				return await options.answer(requestOptions);
			}) as unknown as AweberContext['helpers']['httpRequestWithAuthentication'],
		},
	};
}

const rateLimitRefusal = {
	message: 'Forbidden',
	response: { status: 403, data: { error: { status: 403, type: 'ForbiddenError', message: 'Rate Limit Error' } } },
};
const ok = { statusCode: 200, headers: {}, body: { ok: true } };

describe('aweberApiRequest policies', () => {
	it(`waits out "Rate Limit Error" ${MAX_RATE_LIMIT_WAITS} times, then says another app is using the budget`, async () => {
		const context = stubContext({ answer: async () => await Promise.reject(rateLimitRefusal), windowSeconds: 0.01 });
		const failure = aweberApiRequest(context, { method: 'GET', url: '/accounts' });
		await expect(failure).rejects.toMatchObject({
			message: 'Rate Limit Error',
			description: expect.stringContaining(`after ${MAX_RATE_LIMIT_WAITS} lockout waits`),
		});
		expect(context.sent).toHaveLength(MAX_RATE_LIMIT_WAITS + 1);
		expect(context.logs.some((line) => /waiting .* for the lockout to end/.test(line))).toBe(true);
	});

	it('does not retry other refusals (a missing scope)', async () => {
		const missingScope = {
			response: { status: 403, data: { error: { status: 403, type: 'ForbiddenError', message: 'Missing required scope: subscriber.write' } } },
		};
		const context = stubContext({ answer: async () => await Promise.reject(missingScope) });
		const failure = (await aweberApiRequest(context, { method: 'GET', url: '/accounts' }).catch((error: NodeApiError) => error)) as NodeApiError;
		expect(failure.message).toBe('Missing required scope: subscriber.write');
		expect(failure.description).toMatch(/scope/);
		expect(context.sent).toHaveLength(1);
	});

	it('stops a waiting request with a clear error when the execution is cancelled', async () => {
		const controller = new AbortController();
		const context = stubContext({ answer: async () => ok, requests: 1, windowSeconds: 60, signal: controller.signal });
		await aweberApiRequest(context, { method: 'GET', url: '/accounts' });
		const waiting = aweberApiRequest(context, { method: 'GET', url: '/accounts' }).catch((error: NodeOperationError) => error);
		controller.abort();
		const error = (await waiting) as NodeOperationError;
		expect(error.message).toBe('Stopped waiting for the AWeber rate limit: the execution was cancelled or reached its timeout');
		expect(error.description).toMatch(/allows 1 requests per 60 s/);
		expect(context.sent).toHaveLength(1);
	});

	it('warns up front when the queued requests cannot finish within the workflow timeout', async () => {
		const controller = new AbortController();
		const context = stubContext({
			answer: async () => ok,
			requests: 2,
			windowSeconds: 60,
			signal: controller.signal,
			executionTimeoutSeconds: 30,
		});
		const all = Array.from({ length: 8 }, async () => await aweberApiRequest(context, { method: 'GET', url: '/accounts' }).catch(() => 'stopped'));
		await new Promise((resolve) => setImmediate(resolve));
		controller.abort();
		const outcomes = await Promise.all(all);
		expect(outcomes.filter((outcome) => outcome === 'stopped')).toHaveLength(6);
		// Once, not for every request queued after the first that saw it.
		expect(context.logs.filter((line) => /longer than this workflow's timeout of 30 s/.test(line))).toHaveLength(1);
	});

	it('says nothing of the timeout when the queued requests fit in it', async () => {
		const controller = new AbortController();
		const context = stubContext({ answer: async () => ok, requests: 2, windowSeconds: 60, signal: controller.signal, executionTimeoutSeconds: 600 });
		const all = Array.from({ length: 8 }, async () => await aweberApiRequest(context, { method: 'GET', url: '/accounts' }).catch(() => 'stopped'));
		await new Promise((resolve) => setImmediate(resolve));
		controller.abort();
		await Promise.all(all);
		// Eight requests at two a minute: about four minutes, within ten.
		expect(context.logs.filter((line) => /timeout/.test(line))).toEqual([]);
	});
});

describe('the order of a run\'s requests under the rate limit', () => {
	it('an item\'s next request goes before the first requests of the items after it', async () => {
		const runKey = {};
		const order: string[] = [];
		const itemContext = (itemIndex: number) =>
			Object.assign(
				stubContext({
					answer: async (options) => {
						order.push(String(options.url).replace('https://api.aweber.example/1.0', ''));
						return ok;
					},
					requests: 1,
					windowSeconds: 0.2,
					credentialRef: { id: 'ordered-run', name: 'AWeber' },
				}),
				{ getItemIndex: () => itemIndex, getExecuteData: () => runKey },
			);
		const [first, second, third] = [0, 1, 2].map(itemContext);
		await aweberApiRequest(first, { method: 'GET', url: '/item-0/first' });
		const others = [aweberApiRequest(second, { method: 'GET', url: '/item-1/first' }), aweberApiRequest(third, { method: 'GET', url: '/item-2/first' })];
		await new Promise((resolve) => setImmediate(resolve));
		await Promise.all([aweberApiRequest(first, { method: 'GET', url: '/item-0/next' }), ...others]);
		expect(order).toEqual(['/item-0/first', '/item-0/next', '/item-1/first', '/item-2/first']);
	});
});

describe('an item whose turn comes as an earlier item fails the run', () => {
	it('is not sent: its turn was given by the failing request\'s end, before the run stopped', async () => {
		const runKey = {};
		const sent: string[] = [];
		const refused = { message: 'Bad Request', httpCode: '400' };
		const itemContext = (itemIndex: number) =>
			Object.assign(
				stubContext({
					answer: async (options) => {
						const path = String(options.url).replace('https://api.aweber.example/1.0', '');
						sent.push(path);
						// Item 0 is refused while items 1-3 are still on their way; item 4 waits for one of the four places.
						const [delayMs, outcome] = path === '/item-0' ? [20, refused] : [150, undefined];
						return await new Promise((resolve, reject) => setTimeout(() => (outcome ? reject(outcome) : resolve(ok)), delayMs));
					},
					requests: 120,
					windowSeconds: 60,
					credentialRef: { id: 'failing-run', name: 'AWeber' },
				}),
				{ getItemIndex: () => itemIndex, getExecuteData: () => runKey },
			);
		const outcomes = await Promise.all(
			[0, 1, 2, 3, 4].map(async (index) => await aweberApiRequest(itemContext(index), { method: 'POST', url: `/item-${index}` }).catch((error: Error) => error)),
		);
		expect(sent.sort()).toEqual(['/item-0', '/item-1', '/item-2', '/item-3']);
		expect((outcomes[4] as Error).message).toMatch(/^Not sent to AWeber: item 0 failed first/);
	});
});

describe('pages read ahead: requests one item has in flight at once', () => {
	it('each counts from its own answer: the next waits a whole window after the slow one answered', async () => {
		const runKey = {};
		const answeredAt: Record<string, number> = {};
		const sentAt: Record<string, number> = {};
		const context = Object.assign(
			stubContext({
				answer: async (options) => {
					const path = String(options.url).replace('https://api.aweber.example/1.0', '');
					sentAt[path] = Date.now();
					await new Promise((resolve) => setTimeout(resolve, path === '/page-1' ? 200 : 0));
					answeredAt[path] = Date.now();
					return ok;
				},
				requests: 1,
				windowSeconds: 0.3,
			}),
			{ getItemIndex: () => 0, getExecuteData: () => runKey },
		);
		const read = async (url: string) => await aweberApiRequest(context, { method: 'GET', url, concurrent: true });
		// The second read starts while the first is on its way, as the reader starts a page when one comes back.
		await Promise.all([read('/page-1'), new Promise((resolve) => setTimeout(resolve, 50)).then(async () => await read('/page-2'))]);
		// The limit is one request per 300 ms window, counted from each answer (rateLimiter.ts).
		expect(sentAt['/page-2'] - answeredAt['/page-1']).toBeGreaterThanOrEqual(290);
	});
});

describe('what the share learning counts of this process\'s requests (on the manual clock)', () => {
	it.each([
		['2 and 3 accepted, 4 refused (a confirmation of the lockout)', [1, 4, 5], 1],
		['2, 3 and 4 accepted', [1, 5], 2],
	])('the requests AWeber counted, not the refusals: request 1 refused, then %s', async (_case, refusedCalls, share) => {
		const clock = new ManualClock();
		const id = `learning-${Math.random()}`;
		rateLimiterFor(id, { requests: 10, windowMs: 60_000 }, { clock });
		const controller = new AbortController();
		let calls = 0;
		const gates: Array<() => void> = [];
		const context = stubContext({
			answer: async () => {
				const call = ++calls;
				// Calls 1-4 answer when the test says; the first retry after the lockout is refused, the rest accepted.
				if (call <= 4) await new Promise<void>((open) => gates.push(open));
				if (refusedCalls.includes(call)) throw rateLimitRefusal;
				return ok;
			},
			requests: 10,
			windowSeconds: 60,
			signal: controller.signal,
			credentialRef: { id, name: 'AWeber' },
		});
		const all = [1, 2, 3, 4].map(async () => await aweberApiRequest(context, { method: 'GET', url: '/accounts' }).catch((error: Error) => error));
		while (gates.length < 4) await clock.advance(0);
		// Request 1 is refused and starts the lockout; 100 ms later AWeber answers requests 2-4.
		gates[0]();
		await clock.advance(100);
		gates[1]();
		gates[2]();
		gates[3]();
		await clock.advance(0);
		// After the lockout, a retry is refused while measuring: the share falls to what AWeber counted, less one.
		for (let step = 0; step < 40 && !context.logs.some((line) => line.includes('now sends at most')); step++) await clock.advance(5_000);
		controller.abort();
		await Promise.all(all);
		expect(context.logs.find((line) => line.includes('now sends at most'))).toContain(`this process now sends at most ${share} requests per minute`);
	});
});

describe('a retry outside a node run (a poll, a search in the editor)', () => {
	it('goes before the requests that queued while it was sent: it continues started work', async () => {
		const unavailable = { message: 'Service Unavailable', httpCode: '503' };
		const order: string[] = [];
		const context = stubContext({
			answer: async (options) => {
				const path = String(options.url).replace('https://api.aweber.example/1.0', '');
				order.push(path);
				// The first attempt fails after the other request has queued behind it.
				if (order.length === 1) return await new Promise((_resolve, reject) => setTimeout(() => reject(unavailable), 20));
				return ok;
			},
			requests: 1,
			windowSeconds: 0.3,
		});
		await Promise.all([aweberApiRequest(context, { method: 'GET', url: '/first' }), aweberApiRequest(context, { method: 'GET', url: '/second' })]);
		expect(order).toEqual(['/first', '/first', '/second']);
	});
});

describe('the credential\'s settings', () => {
	it('takes AWeber\'s 120 requests a minute when the credential\'s rate limit is 0', async () => {
		const controller = new AbortController();
		const context = stubContext({ answer: async () => ok, requests: 0, windowSeconds: 0, signal: controller.signal });
		const send = async () => await aweberApiRequest(context, { method: 'GET', url: '/accounts' }).catch((error: NodeOperationError) => error);
		// A window's worth goes at once (more than the places free would be spread over the window: turns between executions).
		const all = Array.from({ length: 120 }, send);
		await new Promise((resolve) => setTimeout(resolve, 50));
		all.push(send());
		await new Promise((resolve) => setTimeout(resolve, 20));
		controller.abort();
		const stopped = (await Promise.all(all)).filter((outcome): outcome is NodeOperationError => outcome instanceof Error);
		expect(context.sent).toHaveLength(120);
		expect(stopped).toHaveLength(1);
		expect(stopped[0].description).toMatch(/allows 120 requests per 60 s/);
	});

	it('sends to the API Base URL without its trailing slashes', async () => {
		const context = stubContext({ answer: async () => ok, apiBaseUrl: 'https://api.aweber.example//' });
		await aweberApiRequest(context, { method: 'GET', url: '/accounts' });
		expect(context.sent.map((options) => options.url)).toEqual(['https://api.aweber.example/1.0/accounts']);
	});

	it('keeps the rate limit of each credential apart, when two credentials have the same name', async () => {
		const controller = new AbortController();
		const [first, second] = ['cred-a', 'cred-b'].map((id) =>
			stubContext({ answer: async () => ok, requests: 1, windowSeconds: 60, signal: controller.signal, credentialRef: { id, name: 'AWeber' } }),
		);
		await aweberApiRequest(first, { method: 'GET', url: '/accounts' });
		const other = aweberApiRequest(second, { method: 'GET', url: '/accounts' }).catch((error: Error) => error);
		await new Promise((resolve) => setTimeout(resolve, 50));
		controller.abort();
		expect(await other).toMatchObject({ statusCode: 200 });
		expect(second.sent).toHaveLength(1);
	});

	it('applies an edited credential within a second, without reading it for every request', async () => {
		let apiBaseUrl = 'https://api.aweber.example';
		let reads = 0;
		const context = stubContext({
			answer: async () => ok,
			readCredential: async () => {
				reads++;
				return { apiBaseUrl, rateLimitRequests: 120, rateLimitWindowSeconds: 0.05 };
			},
		});
		await aweberApiRequest(context, { method: 'GET', url: '/accounts' });
		apiBaseUrl = 'https://edited.aweber.example';
		await aweberApiRequest(context, { method: 'GET', url: '/accounts' });
		await new Promise((resolve) => setTimeout(resolve, 1_050));
		await aweberApiRequest(context, { method: 'GET', url: '/accounts' });
		expect(context.sent.map((options) => options.url)).toEqual([
			'https://api.aweber.example/1.0/accounts',
			'https://api.aweber.example/1.0/accounts',
			'https://edited.aweber.example/1.0/accounts',
		]);
		expect(reads).toBe(2);
	});

	it('reads the credential again at once after a read failed', async () => {
		let reads = 0;
		const context = stubContext({
			answer: async () => ok,
			readCredential: async () => {
				reads++;
				if (reads === 1) throw new Error('Could not read the credential');
				return { apiBaseUrl: 'https://api.aweber.example', rateLimitRequests: 120, rateLimitWindowSeconds: 0.05 };
			},
		});
		await expect(aweberApiRequest(context, { method: 'GET', url: '/accounts' })).rejects.toThrow('Could not read the credential');
		await expect(aweberApiRequest(context, { method: 'GET', url: '/accounts' })).resolves.toMatchObject({ statusCode: 200 });
		expect(context.sent).toHaveLength(1);
	});
});

describe('what a hand-written request sends', () => {
	const jsonHeaders = { Accept: 'application/json', 'User-Agent': USER_AGENT };
	const formHeaders = { ...jsonHeaders, 'Content-Type': 'application/x-www-form-urlencoded' };
	const redirect = (status: string, location: string) => ({ httpCode: status, message: 'Redirect', response: { headers: { location } } });

	it('a GET: JSON\'s Accept, the package\'s User-Agent and its query; no body, no Content-Type', async () => {
		const context = stubContext({ answer: async () => ok });
		await aweberApiRequest(context, { method: 'GET', url: '/accounts', qs: { 'ws.size': 100 } });
		expect(context.sent).toEqual([
			expect.objectContaining({ method: 'GET', url: 'https://api.aweber.example/1.0/accounts', qs: { 'ws.size': 100 }, headers: jsonHeaders, json: true }),
		]);
		expect(context.sent[0].body).toBeUndefined();
	});

	it('a form write: its body form-encoded, said by its Content-Type; a JSON write: its body as JSON', async () => {
		const context = stubContext({ answer: async () => ok });
		await aweberApiRequest(context, { method: 'POST', url: '/accounts/1/lists/2/broadcasts', body: { subject: 'Hi' }, form: true });
		await aweberApiRequest(context, { method: 'POST', url: '/accounts/1/lists/2/subscribers', body: { email: 'a@example.com' } });
		await aweberApiRequest(context, { method: 'GET', url: '/accounts', form: true });
		expect(context.sent).toEqual([
			expect.objectContaining({ body: { subject: 'Hi' }, headers: formHeaders, json: false }),
			expect.objectContaining({ body: { email: 'a@example.com' }, headers: jsonHeaders, json: true }),
			expect.objectContaining({ headers: jsonHeaders }),
		]);
	});

	it('refuses a link outside the credential\'s API before sending, naming where it came from', async () => {
		const context = stubContext({ answer: async () => ok });
		const refusal = aweberApiRequest(context, { method: 'GET', url: 'https://elsewhere.example/1.0/accounts', source: 'the next_collection_link' });
		await expect(refusal).rejects.toMatchObject({ description: expect.stringContaining('next_collection_link') });
		expect(context.sent).toEqual([]);
	});

	it.each([
		['303', 'GET', undefined, jsonHeaders],
		['307', 'POST', { subject: 'Hi' }, formHeaders],
	])('a form write redirected (%s) within the API: sent again as %s, with the Location\'s query only', async (status, method, body, headers) => {
		const location = 'https://api.aweber.example/1.0/accounts/1/lists/2/broadcasts/9?ws.op=x';
		let calls = 0;
		const context = stubContext({ answer: async () => (calls++ === 0 ? await Promise.reject(redirect(status, location)) : ok) });
		await aweberApiRequest(context, { method: 'POST', url: '/accounts/1/lists/2/broadcasts', qs: { a: 1 }, body: { subject: 'Hi' }, form: true });
		expect(context.sent).toHaveLength(2);
		expect(context.sent[0]).toMatchObject({ method: 'POST', qs: { a: 1 }, headers: formHeaders });
		expect(context.sent[1]).toMatchObject({ method, url: location, headers });
		expect(context.sent[1].headers).toEqual(headers);
		expect(context.sent[1].qs).toBeUndefined();
		expect(context.sent[1].body).toEqual(body);
	});
});
