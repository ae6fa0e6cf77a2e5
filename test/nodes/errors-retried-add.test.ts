// A retried add subscriber looks for the subscriber its first attempt may have added only when AWeber refuses the
// retry as a duplicate (HTTP 400 "already subscribed"): any other refusal of the retry stands as it is, and nothing
// more is sent (retries.test.ts has the duplicate case).
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId } from './email-nodes.helpers';

describe('A retried add subscriber refused for another reason than a duplicate', () => {
	const bed = useTestbed();
	const subscribersPath = () => `/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${bed.sandbox.seed.lists.empty}/subscribers`;

	it.each([
		['a 400 about the address', 400, 'Email address is invalid'],
		['a refusal that speaks of "already subscribed" with a status other than 400', 403, 'ada@example.com is already subscribed, and the account is on hold'],
	])('%s: the refusal stands, and no look-up is sent', async (_name, status, message) => {
		// The first attempt fails with a 503 (so its outcome is unknown), the retry is refused.
		bed.sandbox.faults.next(1, '503', { method: 'POST', pathPrefix: subscribersPath() });
		bed.sandbox.faults.next(1, 'answer', { method: 'POST', pathPrefix: subscribersPath(), status, body: { error: { status, type: 'WebAPIError', message } } });
		const result = await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: { operation: 'create', accountId: byId(bed.sandbox.seed.accountId), listId: byId(bed.sandbox.seed.lists.empty), email: 'ada@example.com' } as IDataObject,
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(message);
		expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['POST 503', `POST ${status}`]);
	});
});
