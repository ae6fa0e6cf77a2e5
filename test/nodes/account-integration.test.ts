import { startTestbed, type AweberTestbed } from '../harness/aweber';
import { editorRefusalMessage } from '../harness/n8nVersion';

describe('AWeber Account and AWeber Integration nodes', () => {
	let bed: AweberTestbed;
	let accountId: { __rl: true; mode: string; value: string };
	beforeAll(async () => {
		bed = await startTestbed();
		accountId = { __rl: true, mode: 'id', value: String(bed.sandbox.seed.accountId) };
	});
	afterAll(async () => await bed.stop());
	beforeEach(() => bed.sandbox.clearRequests());

	const apiCalls = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));

	it('gets the account, identifying itself with Accept and User-Agent headers', async () => {
		const result = await bed.harness.runNode({
			type: 'aWeberAccount',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', accountId },
		});
		expect(result.status).toBe('success');
		expect(result.items).toEqual([
			expect.objectContaining({ id: bed.sandbox.seed.accountId, company: bed.sandbox.seed.company, self_link: expect.any(String) }),
		]);
		const [call] = apiCalls();
		expect(call).toMatchObject({ method: 'GET', path: `/1.0/accounts/${bed.sandbox.seed.accountId}`, status: 200 });
		expect(call.userAgent).toMatch(/^n8n-nodes-aweber\/\d+\.\d+\.\d+$/);
	});

	it('gets many accounts as one item per entry, never the envelope', async () => {
		const result = await bed.harness.runNode({
			type: 'aWeberAccount',
			credentialId: bed.credentialId,
			parameters: { operation: 'getAll', returnAll: true },
		});
		expect(result.items).toEqual([expect.objectContaining({ id: bed.sandbox.seed.accountId })]);
		expect(result.items[0]).not.toHaveProperty('entries');
		expect(apiCalls()).toEqual([expect.objectContaining({ path: '/1.0/accounts', query: { 'ws.size': '100' } })]);
	});

	it('takes the account by its AWeber URL (self_link)', async () => {
		const result = await bed.harness.runNode({
			type: 'aWeberAccount',
			credentialId: bed.credentialId,
			parameters: {
				operation: 'get',
				accountId: { __rl: true, mode: 'url', value: `${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}` },
			},
		});
		expect(result.items[0]).toMatchObject({ id: bed.sandbox.seed.accountId });
	});

	it('refuses an account ID that is not numeric before any request, naming the field', async () => {
		// Typed in the field, n8n's own locator validation refuses it...
		const typed = await bed.harness.runNode({
			type: 'aWeberAccount',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', accountId: { __rl: true, mode: 'id', value: 'my account' } },
		});
		expect(typed.status).toBe('error');
		expect(typed.error?.message).toContain(editorRefusalMessage('Not a valid Account ID'));
		// ...and from an expression, the node does.
		const fromExpression = await bed.harness.runNode(
			{
				type: 'aWeberAccount',
				credentialId: bed.credentialId,
				parameters: { operation: 'get', accountId: { __rl: true, mode: 'id', value: '={{ $json.account }}' } },
			},
			[{ account: 'my account' }],
		);
		expect(fromExpression.status).toBe('error');
		expect(fromExpression.error?.message).toBe('The "Account" field must be a numeric AWeber ID, not "my account"');
		expect(apiCalls()).toHaveLength(0);
	});

	it('with Continue On Fail, reports the failing item and passes the others, in input order', async () => {
		const result = await bed.harness.runNode(
			{
				type: 'aWeberAccount',
				credentialId: bed.credentialId,
				continueOnFail: true,
				parameters: { operation: 'get', accountId: { __rl: true, mode: 'id', value: '={{ $json.account }}' } },
			},
			[{ account: bed.sandbox.seed.accountId }, { account: 999 }, { account: '' }, { account: bed.sandbox.seed.accountId }],
		);
		expect(result.status).toBe('success');
		const output = result.output('Node Under Test');
		expect(output.map((item) => item.json.id ?? item.json.error)).toEqual([
			bed.sandbox.seed.accountId,
			expect.stringMatching(/./),
			'The "Account" field is empty',
			bed.sandbox.seed.accountId,
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
	});

	it("turns AWeber's 404 into an error carrying AWeber's message, status and a hint", async () => {
		const result = await bed.harness.runNode({
			type: 'aWeberIntegration',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', accountId, integrationId: { __rl: true, mode: 'id', value: '424242' } },
		});
		expect(result.status).toBe('error');
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.description).toContain('AWeber has no such resource');
		expect(result.error?.description).toContain('NotFoundError');
	});

	it('gets an integration and many integrations', async () => {
		const { integrations } = bed.sandbox.seed;
		const one = await bed.harness.runNode({
			type: 'aWeberIntegration',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', accountId, integrationId: { __rl: true, mode: 'id', value: String(integrations.twitter) } },
		});
		expect(one.items).toEqual([expect.objectContaining({ id: integrations.twitter, service_name: expect.stringMatching(/twitter/i) })]);

		bed.sandbox.clearRequests();
		const all = await bed.harness.runNode({
			type: 'aWeberIntegration',
			credentialId: bed.credentialId,
			parameters: { operation: 'getAll', accountId, returnAll: true },
		});
		expect(all.items.map((item) => item.id)).toEqual(
			expect.arrayContaining([integrations.facebook, integrations.twitter, integrations.paypal]),
		);
		expect(apiCalls()).toHaveLength(1);
	});

	it('stops at the Limit, asking AWeber only for that many', async () => {
		const result = await bed.harness.runNode({
			type: 'aWeberIntegration',
			credentialId: bed.credentialId,
			parameters: { operation: 'getAll', accountId, returnAll: false, limit: 2 },
		});
		expect(result.items).toHaveLength(2);
		expect(apiCalls()).toEqual([expect.objectContaining({ query: { 'ws.size': '2' } })]);
	});
});
