// Which HTTP statuses the node sends again: AWeber's 500 and 503 are tested in retries.test.ts; a gateway or proxy in
// front of AWeber answers 502 and 504 (often as an HTML page), which mean the same: AWeber may not have seen the request.
import { useTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { apiCalls, byId } from './email-nodes.helpers';

describe('Statuses sent again, and statuses that are not', () => {
	const bed = useTestbed();

	const getAccountAfter = async (status: number) => {
		bed.sandbox.faults.next(1, 'answer', { status, body: `<html><body>${status}</body></html>`, pathPrefix: '/1.0/accounts' });
		return await bed.harness.runNode({
			type: 'aWeberAccount',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) },
		});
	};

	it.each([502, 504])('a %i from a gateway: the read is sent again and succeeds, and n8n\'s log says so', async (status) => {
		const logs = recordNodeLogs();
		const result = await getAccountAfter(status).finally(logs.restore);
		expect(result.status).toBe('success');
		expect(result.items[0]).toMatchObject({ id: bed.sandbox.seed.accountId });
		expect(apiCalls(bed).map((call) => call.path.startsWith('/1.0/accounts'))).toEqual([true, true]);
		const retries = logs.lines.filter((line) => /^AWeber request failed/.test(line.message));
		expect(retries).toEqual([
			{ level: 'warn', message: expect.stringMatching(new RegExp(`^AWeber request failed \\(${status}\\); retry 1 of 4 in \\d`)), metadata: { node: expect.any(String) } },
		]);
	});

	it("a 429 that speaks of a rate limit (a proxy's, not AWeber's 403 lockout): not waited out or sent again", async () => {
		bed.sandbox.faults.next(1, 'answer', { status: 429, body: { error: { status: 429, message: 'Rate limit exceeded' } }, pathPrefix: '/1.0/accounts' });
		const result = await bed.harness.runNode({
			type: 'aWeberAccount',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Rate limit exceeded');
		expect(apiCalls(bed)).toHaveLength(1);
	});

	it.each([501, 505])('a %i: not sent again, the item fails with the status', async (status) => {
		const result = await getAccountAfter(status);
		expect(result.status).toBe('error');
		expect(result.error?.description).toBe(`HTTP status: ${status}`);
		expect(apiCalls(bed)).toHaveLength(1);
	});
});
