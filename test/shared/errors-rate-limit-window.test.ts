// How the credential's rate-limit window is named in what the user reads (the lockout notice in n8n's log and the
// editor, the error after lockouts that keep coming): "minute" for AWeber's own window, otherwise its length.
// AWeber's "Rate Limit Error" is thrown here as n8n's HTTP helper throws it: a NodeApiError with the status as
// `httpCode` and AWeber's body as `context.data` (the mutation runs of errors.ts, test/mutation/runs.json).
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { AweberContext } from '../../nodes/shared/aweberContext';
import { aweberApiRequest } from '../../nodes/shared/transport';

const rateLimitError = (node: INode) =>
	new NodeApiError(node, { message: 'Forbidden' } as JsonObject, { httpCode: '403' }) as NodeApiError & { context: { data: unknown } };

/** A context whose every request AWeber refuses with "Rate Limit Error"; `notices` is what the node logged. */
function refusedEveryTime(windowSeconds: number, signal?: AbortSignal) {
	const notices: string[] = [];
	const node = { name: 'AWeber', credentials: { aWeberOAuth2Api: { id: `window-${windowSeconds}-${Math.random()}`, name: 'AWeber' } } } as unknown as INode;
	const context: AweberContext = {
		getNode: () => node,
		getCredentials: (async () => ({ apiBaseUrl: 'https://api.aweber.example', rateLimitRequests: 120, rateLimitWindowSeconds: windowSeconds })) as unknown as AweberContext['getCredentials'],
		logger: { info: (line: string) => notices.push(line), warn: (line: string) => notices.push(line), debug: () => undefined, error: () => undefined } as unknown as AweberContext['logger'],
		getExecutionCancelSignal: () => signal,
		helpers: {
			httpRequestWithAuthentication: (async () => {
				const error = rateLimitError(node);
				error.context.data = { error: { status: 403, type: 'ForbiddenError', message: 'Rate Limit Error' } };
				throw error;
			}) as unknown as AweberContext['helpers']['httpRequestWithAuthentication'],
		},
	};
	return { context, notices };
}

describe('The rate-limit window as the user reads it', () => {
	it.each([
		[60, 'minute'],
		[6, '6 s'],
	])('a %i s window: the lockout notice speaks of "per %s"', async (windowSeconds, name) => {
		const controller = new AbortController();
		const { context, notices } = refusedEveryTime(windowSeconds, controller.signal);
		let settled = false;
		const request = aweberApiRequest(context, { method: 'GET', url: '/accounts' })
			.catch((error: Error) => error)
			.finally(() => (settled = true));
		// Until the notice is written, or the request ended without it (AWeber's refusal not read as the rate limit).
		while (!settled && !notices.some((line) => line.includes('measure its share'))) await new Promise((resolve) => setTimeout(resolve, 5));
		// The lockout itself is not waited out here: the run is cancelled once the notice is written.
		controller.abort();
		await request;
		expect(notices.find((line) => line.includes('measure its share'))).toMatch(new RegExp(`share of the account's 120 requests per ${name}$`));
	});

	// 500 ms, not less: this runs on the real clock, and a measurement ends once a window passed after its lockout with
	// no refusal. A window of 50 ms ended it whenever the retry was late by more than that (a loaded CI machine), and the
	// next refusal started a second one.
	it('a 500 ms window: after the lockouts, the error names the window in milliseconds', async () => {
		const { context, notices } = refusedEveryTime(0.5);
		const error = (await aweberApiRequest(context, { method: 'GET', url: '/accounts' }).catch((failure: Error) => failure)) as NodeApiError;
		expect(error.message).toBe('Rate Limit Error');
		expect(error.description).toContain(
			"This credential allows 120 requests per 500 ms for the AWeber account (AWeber's own limit is 120 per minute, shared by every app using the account). The node waited and retried; another app or n8n process may be using the same account.",
		);
		// One measurement, started by the first refusal; the refusals after it only lower the share.
		expect(notices.filter((line) => line.includes('measure its share'))).toHaveLength(1);
		// Refused again after the measuring lockout with nothing of its own counted: the share falls to one request.
		expect(notices.find((line) => line.includes('now sends at most'))).toBe(
			'AWeber: another process or app is using this AWeber account: this process now sends at most 1 requests per 500 ms (the credential allows 120), rising again while AWeber accepts them',
		);
	});
});
