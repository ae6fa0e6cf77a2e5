import type { IHttpRequestOptions, INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { MAX_RATE_LIMIT_WAITS } from '../../nodes/shared/failureDecision';
import type { AweberContext } from '../../nodes/shared/aweberContext';
import { aweberApiRequest } from '../../nodes/shared/transport';

interface StubOptions {
	answer: (options: IHttpRequestOptions) => Promise<unknown>;
	requests?: number;
	windowSeconds?: number;
	signal?: AbortSignal;
	executionTimeoutSeconds?: number;
}

/** An n8n context whose HTTP helper is `answer`, with its own credential (so its own rate-limit queue). */
function stubContext(options: StubOptions): AweberContext & { logs: string[]; sent: IHttpRequestOptions[] } {
	const logs: string[] = [];
	const sent: IHttpRequestOptions[] = [];
	const credentialId = `stub-${Math.random().toString(36).slice(2)}`;
	const node = { name: 'AWeber Test', credentials: { aWeberOAuth2Api: { id: credentialId, name: 'stub' } } } as unknown as INode;
	const record = (message: string) => logs.push(message);
	return {
		logs,
		sent,
		getNode: () => node,
		getCredentials: (async () => ({
			apiBaseUrl: 'https://api.aweber.example',
			rateLimitRequests: options.requests ?? 120,
			rateLimitWindowSeconds: options.windowSeconds ?? 0.05,
		})) as unknown as AweberContext['getCredentials'],
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
