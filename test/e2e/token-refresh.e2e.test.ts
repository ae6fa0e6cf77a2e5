// An access token that expires in the middle of a run: n8n refreshes it on AWeber's 401, the run succeeds, and the
// credential keeps the rotated refresh token (the sandbox, like AWeber, refuses a used one).
import { aweberWorkflow, byId, createAweberCredential, importWorkflow, nodeItems, readStoredCredentialData, runWorkflow, useSandboxAndN8n } from './lib';

describe('Token expiring mid-run, refreshed by n8n', () => {
	const env = useSandboxAndN8n();

	const accountPath = () => `/1.0/accounts/${env.sandbox.seed.accountId}`;
	const listsPath = () => `${accountPath()}/lists`;
	/** Every request n8n made (API and OAuth), as `METHOD path status`. */
	const calls = () => env.sandbox.requests().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
	const tokenRequests = () => env.sandbox.requests().filter((entry) => entry.path === '/oauth2/token');

	/** Resolves once the sandbox has answered a request to `path`. */
	async function answered(path: string): Promise<void> {
		const deadline = Date.now() + 120_000;
		while (!env.sandbox.requests().some((entry) => entry.path === path)) {
			if (Date.now() > deadline) throw new Error(`n8n never requested ${path}`);
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	}

	it('refreshes between two nodes, finishes the run, and stores the rotated refresh token', async () => {
		const { sandbox, n8n } = env;
		const original = sandbox.issueToken();
		const credentialId = await createAweberCredential(n8n, sandbox, { token: original });
		const account = { accountId: byId(sandbox.seed.accountId) };
		const workflowId = await importWorkflow(
			n8n,
			aweberWorkflow('Two nodes, one token expiry', credentialId, [
				{ name: 'Account', node: 'aWeberAccount', parameters: { operation: 'get', ...account } },
				{ name: 'List', node: 'aWeberList', parameters: { operation: 'get', ...account, listId: byId(sandbox.seed.lists.newsletter) } },
			]),
		);

		// The List node's first request is held at the door long enough for the test to expire every token
		// once the Account node has been answered: the expiry lands between the two nodes.
		sandbox.faults.next(1, 'slow', { delayMs: 3000, pathPrefix: listsPath() });
		const running = runWorkflow(n8n, workflowId);
		await answered(accountPath());
		sandbox.faults.expireAllTokens();
		const result = await running;

		expect(result.status).toBe('success');
		expect(nodeItems(result, 'Account')).toEqual([expect.objectContaining({ id: sandbox.seed.accountId })]);
		expect(nodeItems(result, 'List')).toEqual([expect.objectContaining({ id: sandbox.seed.lists.newsletter, name: 'Newsletter' })]);
		const list = `${listsPath()}/${sandbox.seed.lists.newsletter}`;
		expect(calls()).toEqual([`GET ${accountPath()} 200`, `GET ${list} 401`, 'POST /oauth2/token 200', `GET ${list} 200`]);
		expect(tokenRequests()[0].body).toMatchObject({ grant_type: 'refresh_token', refresh_token: original.refresh_token });

		// What n8n stored: new access and refresh tokens.
		const stored = (await readStoredCredentialData(n8n, credentialId)).oauthTokenData;
		expect(stored.access_token).toEqual(expect.any(String));
		expect(stored.access_token).not.toBe(original.access_token);
		expect(stored.refresh_token).toEqual(expect.any(String));
		expect(stored.refresh_token).not.toBe(original.refresh_token);

		// And it is the one n8n uses next time: after another expiry the refresh presents it and is accepted
		// (the original was spent by the first refresh and would be refused).
		sandbox.clearRequests();
		sandbox.faults.expireAllTokens();
		const again = await runWorkflow(n8n, workflowId);
		expect(again.status).toBe('success');
		expect(tokenRequests()).toEqual([
			expect.objectContaining({ status: 200, body: expect.objectContaining({ refresh_token: stored.refresh_token }) }),
		]);
		expect(calls()).toEqual([`GET ${accountPath()} 401`, 'POST /oauth2/token 200', `GET ${accountPath()} 200`, `GET ${list} 200`]);
	});
});
