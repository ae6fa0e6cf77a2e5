// A request refused at the token endpoint ("invalid_grant", EAUTH) while another request of the credential refreshed
// the token is sent once more (nodes/shared/sendWithPolicies.ts); a second such refusal fails the request, whatever
// the other requests do meanwhile: a credential whose refresh keeps failing is not asked again and again.
import type { IHttpRequestOptions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { AweberContext } from '../../nodes/shared/aweberContext';
import { aweberApiRequest } from '../../nodes/shared/transport';

const node = { name: 'AWeber', credentials: { aWeberOAuth2Api: { id: 'race', name: 'AWeber' } } } as unknown as INode;
const refusedRefresh = () => new NodeApiError(node, Object.assign(new Error('invalid_grant'), { code: 'EAUTH' }) as unknown as JsonObject);

describe('A request that lost a token refresh race', () => {
	it('is sent once more after another request succeeded, and fails when it is refused again', async () => {
		const sent: string[] = [];
		const id = `race-${Math.random()}`;
		const context: AweberContext = {
			getNode: () => ({ ...node, credentials: { aWeberOAuth2Api: { id, name: 'AWeber' } } }),
			getCredentials: (async () => ({ apiBaseUrl: 'https://api.aweber.example', rateLimitRequests: 120, rateLimitWindowSeconds: 60 })) as unknown as AweberContext['getCredentials'],
			logger: { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined } as unknown as AweberContext['logger'],
			helpers: {
				httpRequestWithAuthentication: (async (_type: string, options: IHttpRequestOptions) => {
					sent.push(String(options.url));
					// The fifth attempt is answered: a request sent again and again ends the test, not the run.
					if (!String(options.url).endsWith('/lists') || sent.filter((url) => url.endsWith('/lists')).length >= 5) return { statusCode: 200, headers: {}, body: {} };
					// Each attempt of the read races another request of the credential, which wins: its refresh worked.
					await aweberApiRequest(context, { method: 'GET', url: '/accounts' });
					throw refusedRefresh();
				}) as unknown as AweberContext['helpers']['httpRequestWithAuthentication'],
			},
		};
		const outcome = await aweberApiRequest(context, { method: 'GET', url: '/lists' }).then(
			() => 'answered',
			(error: Error) => error.message,
		);
		expect(outcome).toBe('invalid_grant');
		expect(sent.filter((url) => url.endsWith('/lists'))).toHaveLength(2);
	});
});
