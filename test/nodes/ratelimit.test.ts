// Pacing under AWeber's rate limit (120 requests per minute per account; the request over it gets 403
// "Rate Limit Error" and a 60 s lockout), on a 60x sandbox clock: a minute of AWeber time is a second here.
import type { IDataObject } from 'n8n-workflow';

import { startTestbed, useTestbed, type AweberTestbed } from '../harness/aweber';
import type { RequestLogEntry } from '../sandbox/types';

type Locator = { __rl: true; mode: 'id'; value: string };
const byId = (value: string | number): Locator => ({ __rl: true, mode: 'id', value: String(value) });

const apiCalls = (bed: AweberTestbed): RequestLogEntry[] => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));
const refusals = (bed: AweberTestbed) => apiCalls(bed).filter((entry) => entry.status === 403);

/** Calls `action` once the sandbox has received `count` API requests (polled; the run keeps going meanwhile). */
function whenRequestsReach(bed: AweberTestbed, count: number, action: () => void): { done: Promise<void> } {
	return {
		done: new Promise<void>((resolve) => {
			const poll = setInterval(() => {
				if (apiCalls(bed).length < count) return;
				clearInterval(poll);
				action();
				resolve();
			}, 2);
		}),
	};
}

function emails(count: number, prefix: string): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({ email: `${prefix}${index}@example.com` }));
}

describe('Rate limit: pacing at AWeber\'s limit (sandbox at AWeber\'s 120 per minute)', () => {
	const bed = useTestbed();

	const addSubscribers = async (items: IDataObject[], credentialId = bed.credentialId) =>
		await bed.harness.runNode(
			{
				type: 'aWeberSubscriber',
				credentialId,
				parameters: {
					operation: 'create',
					accountId: byId(bed.sandbox.seed.accountId),
					listId: byId(bed.sandbox.seed.lists.empty),
					email: '={{ $json.email }}',
				},
			},
			items,
		);

	it('adds 300 subscribers in one run without a single Rate Limit Error, each output paired with its input', async () => {
		const input = emails(300, 'bulk');
		const result = await addSubscribers(input);

		expect(result.status).toBe('success');
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(input.map((item) => item.email));
		expect(result.output('Node Under Test').map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		expect(refusals(bed)).toEqual([]);
		const added = apiCalls(bed).filter((entry) => entry.method === 'POST' && entry.status === 201);
		expect(added).toHaveLength(300);
	});

	it('keeps two workflows running at once on the same account under its limit together', async () => {
		const [first, second] = await Promise.all([
			addSubscribers(emails(150, 'first')),
			bed.harness.runNode(
				{ type: 'aWeberAccount', credentialId: bed.credentialId, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
				emails(150, 'reader'),
			),
		]);
		expect(first.status).toBe('success');
		expect(second.status).toBe('success');
		expect(first.items).toHaveLength(150);
		expect(second.items).toHaveLength(150);
		expect(apiCalls(bed)).toHaveLength(450);
		expect(refusals(bed)).toEqual([]);
	});

	it('waits out a lockout caused by another app in the middle of a run, and loses nothing', async () => {
		const input = emails(200, 'lockout');
		const lockout = whenRequestsReach(bed, 60, () => bed.sandbox.faults.forceRateLimitLockout());
		const result = await addSubscribers(input);
		await lockout.done;

		expect(result.status).toBe('success');
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(input.map((item) => item.email));
		// AWeber refused at least one request during the lockout; each was sent again afterwards.
		expect(refusals(bed).length).toBeGreaterThan(0);
		const addedEmails = apiCalls(bed)
			.filter((entry) => entry.method === 'POST' && entry.status === 201)
			.map((entry) => (entry.body as IDataObject).email);
		expect(new Set(addedEmails).size).toBe(200);
		expect(addedEmails).toHaveLength(200);
	});

	it('waits out a lockout that is already on when the run starts', async () => {
		bed.sandbox.faults.forceRateLimitLockout();
		const result = await bed.harness.runNode({
			type: 'aWeberAccount',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) },
		});
		expect(result.status).toBe('success');
		expect(apiCalls(bed).map((entry) => entry.status)).toEqual([403, 200]);
	});

	it('refreshes an access token that expires in the middle of a paced run once, and finishes the run', async () => {
		const credentialId = bed.connect();
		const refreshesBefore = bed.harness.credentials.tokenUpdates.filter((update) => update.credentialId === credentialId).length;
		const expiry = whenRequestsReach(bed, 150, () => bed.sandbox.faults.expireAllTokens());
		const result = await bed.harness.runNode(
			{ type: 'aWeberAccount', credentialId, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
			emails(300, 'token'),
		);
		await expiry.done;

		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(300);
		const refreshes = bed.harness.credentials.tokenUpdates.filter((update) => update.credentialId === credentialId);
		expect(refreshes.length - refreshesBefore).toBe(1);
		expect(apiCalls(bed).filter((entry) => entry.status === 401).length).toBeGreaterThan(0);
		expect(refusals(bed)).toEqual([]);
	});

	it('keeps items in order and paired with their inputs', async () => {
		const { facebook, twitter, paypal } = bed.sandbox.seed.integrations;
		const ids = Array.from({ length: 30 }, (_, index) => [facebook, twitter, paypal][index % 3]);
		const result = await bed.harness.runNode(
			{
				type: 'aWeberIntegration',
				credentialId: bed.credentialId,
				parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId), integrationId: byId('={{ $json.id }}') },
			},
			ids.map((id) => ({ id })),
		);
		expect(result.status).toBe('success');
		expect(result.items.map((integration) => integration.id)).toEqual(ids);
		expect(result.output('Node Under Test').map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	});

	it('with Continue On Fail reports each refused item in its place and outputs the others', async () => {
		const { facebook, twitter } = bed.sandbox.seed.integrations;
		const ids = [facebook, 999999, twitter, 999998, facebook];
		const result = await bed.harness.runNode(
			{
				type: 'aWeberIntegration',
				credentialId: bed.credentialId,
				continueOnFail: true,
				parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId), integrationId: byId('={{ $json.id }}') },
			},
			ids.map((id) => ({ id })),
		);
		expect(result.status).toBe('success');
		const output = result.output('Node Under Test');
		expect(output).toHaveLength(5);
		expect(output.map((item) => (item.error ? 'error' : item.json.id))).toEqual([facebook, 'error', twitter, 'error', facebook]);
		expect(output[1].error?.message).toMatch(/not found/i);
		expect(output.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	});
});

describe('Rate limit: an account with its own limit set in the credential (10 per minute)', () => {
	let bed: AweberTestbed;
	beforeAll(async () => {
		// A 120x clock: AWeber's minute (window and lockout) is half a second. 10 requests per half second is still far
		// below what a run sends unpaced on a busy machine, so the pacing is what keeps AWeber from refusing.
		bed = await startTestbed({
			timeScale: 120,
			rateLimit: { requestsPerWindow: 10, windowSeconds: 60, lockoutSeconds: 60 },
			credential: { rateLimitRequests: 10 },
		});
	});
	afterAll(async () => await bed.stop());

	it('paces 35 requests to 10 per window without a Rate Limit Error', async () => {
		bed.sandbox.clearRequests();
		const result = await bed.harness.runNode(
			{ type: 'aWeberAccount', credentialId: bed.credentialId, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
			emails(35, 'custom'),
		);
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(35);
		expect(apiCalls(bed)).toHaveLength(35);
		expect(refusals(bed)).toEqual([]);
	});

	it('without pacing from the credential (a limit above the account\'s), AWeber\'s lockouts are still waited out', async () => {
		const unpaced = bed.connect({ rateLimitRequests: 1000 });
		bed.sandbox.reset();
		bed.sandbox.clearRequests();
		const result = await bed.harness.runNode(
			{ type: 'aWeberAccount', credentialId: unpaced, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
			emails(12, 'unpaced'),
		);
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(12);
		expect(refusals(bed).length).toBeGreaterThan(0);
	});
});
