// A connection that fails without an answer, for each way Node's sockets report it: which requests are sent again,
// and what the user reads when a write that cannot be repeated lost its answer (docs/architecture.md#architecture-the-request-path).
// The sandbox can only reset a connection, so the other failures are thrown here as n8n's HTTP helper throws them:
// a NodeApiError made from the socket's error, whose code n8n keeps as `httpCode`.
import type { IHttpRequestOptions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { AweberContext } from '../../nodes/shared/aweberContext';
import { aweberApiRequest } from '../../nodes/shared/transport';

const node = { name: 'AWeber', credentials: { aWeberOAuth2Api: { id: 'dropped', name: 'AWeber' } } } as unknown as INode;

/** A socket failure as n8n's HTTP helpers throw it. */
const dropped = (code: string) => new NodeApiError(node, Object.assign(new Error(`${code} on 127.0.0.1:443`), { code }) as unknown as JsonObject);

/**
 * An n8n context whose HTTP helper fails the first `failures` requests with `code`, then answers; `sent` lists what
 * was sent. Each context has its own credential id, so its own pacing.
 */
function failingFirst(code: string, failures = 1) {
	const sent: IHttpRequestOptions[] = [];
	const id = `dropped-${code}-${Math.random()}`;
	const context: AweberContext = {
		getNode: () => ({ ...node, credentials: { aWeberOAuth2Api: { id, name: 'AWeber' } } }),
		getCredentials: (async () => ({ apiBaseUrl: 'https://api.aweber.example', rateLimitRequests: 120, rateLimitWindowSeconds: 0.06 })) as unknown as AweberContext['getCredentials'],
		logger: { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined } as unknown as AweberContext['logger'],
		helpers: {
			httpRequestWithAuthentication: (async (_type: string, options: IHttpRequestOptions) => {
				sent.push(options);
				if (sent.length <= failures) throw dropped(code);
				return { statusCode: 200, headers: {}, body: { id: 1 } };
			}) as unknown as AweberContext['helpers']['httpRequestWithAuthentication'],
		},
	};
	return { context, sent };
}

const MAY_HAVE_RUN = /^AWeber may have carried out this change, but AWeber's answer was lost/;

describe('A connection dropped without an answer', () => {
	it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN'])('%s: a read is sent again and succeeds', async (code) => {
		const { context, sent } = failingFirst(code);
		const answer = await aweberApiRequest(context, { method: 'GET', url: '/accounts' });
		expect(answer.body).toEqual({ id: 1 });
		expect(sent).toHaveLength(2);
	});

	it.each(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED'])(
		'%s: a write that cannot be repeated is not sent again, and the error says it may have been carried out',
		async (code) => {
			const { context, sent } = failingFirst(code);
			const failure = await aweberApiRequest(context, { method: 'POST', url: '/accounts/1/lists/2/purchases', body: { email: 'a@example.com' } }).catch((error: Error) => error);
			expect((failure as Error).message).toMatch(MAY_HAVE_RUN);
			expect((failure as Error).message).toContain(`(${code}: `);
			expect(sent).toHaveLength(1);
		},
	);

	it.each(['ECONNREFUSED', 'EAI_AGAIN'])('%s: a write that never reached AWeber fails as it is, without "may have been carried out"', async (code) => {
		const { context, sent } = failingFirst(code);
		const failure = (await aweberApiRequest(context, { method: 'POST', url: '/accounts/1/lists/2/purchases', body: {} }).catch((error: Error) => error)) as NodeApiError;
		// n8n's own words for the code ("The service refused the connection - perhaps it is offline"), and nothing more.
		expect(failure.message).not.toMatch(MAY_HAVE_RUN);
		expect(failure.description ?? '').toBe('');
		expect(failure.httpCode).toBeNull();
		expect(sent).toHaveLength(1);
	});

	it('a code that is no dropped connection (a refused token refresh) is not sent again, even for a read', async () => {
		const { context, sent } = failingFirst('EAUTH');
		await expect(aweberApiRequest(context, { method: 'GET', url: '/accounts' })).rejects.toThrow('EAUTH on 127.0.0.1:443');
		expect(sent).toHaveLength(1);
	});
});
