// Pacing is measured on the monotonic clock: a step of this machine's wall clock (an NTP correction, a resumed VM)
// while requests wait for their turn neither stretches the wait nor lets requests through early (docs/rate-limits.md).
import { startTestbed, type AweberTestbed } from '../harness/aweber';
import { stepWallClock } from '../shared/manualClock';
import { apiCalls, byId } from './email-nodes.helpers';

describe('Rate limit: the wall clock steps while the window is full', () => {
	let bed: AweberTestbed;
	beforeAll(async () => {
		// Two requests per window at AWeber and in the credential; AWeber's window (180 s of a 120x sandbox clock) and the
		// credential's are 1.5 real seconds: long enough that the second run starts inside the first's window on a busy
		// machine (a wait cut short by the step meets AWeber's refusal), short enough not to idle the suite.
		bed = await startTestbed({
			timeScale: 120,
			rateLimit: { requestsPerWindow: 2, windowSeconds: 180, lockoutSeconds: 180 },
			credential: { rateLimitRequests: 2, rateLimitWindowSeconds: 1.5 },
		});
	});
	afterAll(async () => await bed.stop());
	afterEach(() => jest.restoreAllMocks());

	const getAccount = async (count: number) =>
		await bed.harness.runNode(
			{ type: 'aWeberAccount', credentialId: bed.credentialId, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
			Array.from({ length: count }, (_, index) => ({ index })),
		);

	it.each([
		['back 10 minutes', -10 * 60_000],
		['forward 10 minutes', 10 * 60_000],
	])('steps %s between two runs: the second waits for the window as it would have, and AWeber refuses nothing', async (_name, stepMs) => {
		bed.sandbox.reset();
		bed.sandbox.clearRequests();
		expect((await getAccount(2)).status).toBe('success');
		// The window is full: the next run's requests wait for it, whatever the wall clock says meanwhile.
		stepWallClock(stepMs);
		const second = await getAccount(2);
		expect(second.status).toBe('success');
		expect(second.items).toHaveLength(2);
		// AWeber (whose clock did not step) saw the account's pace kept: no request refused.
		expect(apiCalls(bed).map((call) => call.status)).toEqual([200, 200, 200, 200]);
	}, 60_000);
});
