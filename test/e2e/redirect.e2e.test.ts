// A real n8n, an API that answers with a redirect to another host: n8n's HTTP layer would follow it and send the
// token along; the nodes tell it not to, refuse the redirect, and the other host receives nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { aweberWorkflow, byId, createAweberCredential, importWorkflow, nodeError, runWorkflow, useSandboxAndN8n } from './lib';

describe('A redirect from the API in a real n8n', () => {
	let foreign: Server;
	let foreignUrl: string;
	const received: string[] = [];

	beforeAll(async () => {
		foreign = createServer((request, response) => {
			received.push(`${request.method} ${request.url} ${request.headers.authorization ?? 'no token'}`);
			response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"company":"Harvester"}');
		});
		await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
		foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
	});
	// After the foreign host is up; n8n and the sandbox stop before it closes.
	const env = useSandboxAndN8n();
	afterAll(async () => {
		foreign?.closeAllConnections();
		await new Promise<void>((resolve) => (foreign ? foreign.close(() => resolve()) : resolve()));
	});

	it('Account Get and Subscriber Create: a 307 to another host is refused and that host receives nothing', async () => {
		const { sandbox, n8n } = env;
		const credentialId = await createAweberCredential(n8n, sandbox, { token: sandbox.issueToken() });
		const account = { accountId: byId(sandbox.seed.accountId) };
		const steps = {
			Account: { name: 'Account', node: 'aWeberAccount', parameters: { operation: 'get', ...account } },
			Create: {
				name: 'Create',
				node: 'aWeberSubscriber',
				parameters: { operation: 'create', ...account, listId: byId(sandbox.seed.lists.newsletter), email: 'redirected@example.com' },
			},
		};
		for (const [name, step] of Object.entries(steps)) {
			const workflowId = await importWorkflow(n8n, aweberWorkflow(`Redirected ${name}`, credentialId, [step]));
			sandbox.faults.next(1, 'redirect', { status: 307, location: `${foreignUrl}/1.0/collect` });
			const result = await runWorkflow(n8n, workflowId);
			expect(result.status).toBe('error');
			expect(nodeError(result, name)?.message).toBe('Refused to follow a redirect (HTTP 307) from AWeber');
		}
		expect(received).toEqual([]);
		// Each request was answered with the redirect once, and not sent again anywhere.
		expect(sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/')).map((entry) => `${entry.method} ${entry.status}`)).toEqual([
			'GET 307',
			'POST 307',
		]);
	});
});
