// AWeber's rate limit: 120 requests per sliding minute per account, a 403 "Rate Limit Error" for the request
// over it and a 60 second lockout, all on the sandbox clock.
import { accountPath, call, useSandbox } from './api-test-client';
import { SandboxClock } from './clock';
import { startSandbox } from './index';
import { RateLimiter } from './ratelimit';
import type { Sandbox } from './types';

const SECOND = 1000;

function expectRateLimited(response: { status: number; json(): { error: Record<string, unknown> } }) {
	expect(response.status).toBe(403);
	expect(response.json().error).toMatchObject({ status: 403, type: 'ForbiddenError', message: 'Rate Limit Error' });
}

async function spend(sandbox: Sandbox, token: string, count: number): Promise<number[]> {
	const statuses: number[] = [];
	for (let index = 0; index < count; index++) {
		statuses.push((await call(sandbox, 'GET', accountPath(sandbox), { token })).status);
	}
	return statuses;
}

describe('the rate limit over HTTP', () => {
	let sandbox: Sandbox;
	let token: string;

	useSandbox((started, fresh) => {
		sandbox = started;
		token = fresh;
	});

	it('allows 120 requests a minute; the 121st gets 403 Rate Limit Error and locks the account for 60 seconds', async () => {
		expect(new Set(await spend(sandbox, token, 120))).toEqual(new Set([200]));
		expectRateLimited(await call(sandbox, 'GET', accountPath(sandbox), { token }));

		// Every request during the lockout is refused, whatever it asks for and whatever its token.
		sandbox.clock.advance(30 * SECOND);
		expectRateLimited(await call(sandbox, 'GET', '/accounts', { token: sandbox.issueToken().access_token }));
		sandbox.clock.advance(29 * SECOND);
		expectRateLimited(await call(sandbox, 'GET', accountPath(sandbox), { token }));

		sandbox.clock.advance(1.5 * SECOND);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(200);
	});

	it('counts over a sliding window, not per calendar minute', async () => {
		expect(new Set(await spend(sandbox, token, 60))).toEqual(new Set([200]));
		sandbox.clock.advance(40 * SECOND);
		expect(new Set(await spend(sandbox, token, 60))).toEqual(new Set([200]));
		// 61 s after the first burst it has left the window; the second burst is still in it.
		sandbox.clock.advance(21 * SECOND);
		expect(new Set(await spend(sandbox, token, 60))).toEqual(new Set([200]));
		expectRateLimited(await call(sandbox, 'GET', accountPath(sandbox), { token }));
	});

	it('does not count requests that fail authentication, nor the control plane', async () => {
		for (let index = 0; index < 130; index++) {
			expect((await call(sandbox, 'GET', accountPath(sandbox), { token: 'unknown' })).status).toBe(401);
		}
		for (let index = 0; index < 10; index++) await fetch(`${sandbox.apiBaseUrl}/__sandbox/`);
		expect(new Set(await spend(sandbox, token, 120))).toEqual(new Set([200]));
	});

	it('can be forced into lockout by the control plane, in code or over HTTP', async () => {
		sandbox.faults.forceRateLimitLockout();
		expectRateLimited(await call(sandbox, 'GET', accountPath(sandbox), { token }));
		sandbox.clock.advance(61 * SECOND);
		expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(200);

		const forced = await fetch(`${sandbox.apiBaseUrl}/__sandbox/faults/rate-limit-lockout`, { method: 'POST' });
		expect(forced.status).toBe(200);
		expectRateLimited(await call(sandbox, 'GET', accountPath(sandbox), { token }));
	});
});

describe('the rate limit with a time scale', () => {
	it('runs window and lockout on sandbox time: at 60x the 60 s lockout passes in about a real second', async () => {
		const sandbox = await startSandbox({ timeScale: 60, rateLimit: { requestsPerWindow: 5, windowSeconds: 60, lockoutSeconds: 60 } });
		try {
			const token = sandbox.issueToken().access_token;
			expect(await spend(sandbox, token, 5)).toEqual([200, 200, 200, 200, 200]);
			expectRateLimited(await call(sandbox, 'GET', accountPath(sandbox), { token }));
			await new Promise((resolve) => setTimeout(resolve, sandbox.clock.toRealMs(61 * SECOND)));
			expect((await call(sandbox, 'GET', accountPath(sandbox), { token })).status).toBe(200);
		} finally {
			await sandbox.stop();
		}
	});
});

describe('RateLimiter', () => {
	it('follows its configured budget, window and lockout', () => {
		const clock = new SandboxClock(1);
		const limiter = new RateLimiter(clock, { requestsPerWindow: 3, windowSeconds: 10, lockoutSeconds: 5 });
		expect([limiter.hit(1), limiter.hit(1), limiter.hit(1)]).toEqual(['allowed', 'allowed', 'allowed']);
		expect(limiter.hit(2)).toBe('allowed');
		expect(limiter.hit(1)).toBe('limited');
		clock.advance(4 * SECOND);
		expect(limiter.hit(1)).toBe('limited');
		clock.advance(1.1 * SECOND);
		expect(limiter.hit(1)).toBe('allowed');
	});

	it('forgets requests older than the window', () => {
		const clock = new SandboxClock(1);
		const limiter = new RateLimiter(clock, { requestsPerWindow: 2, windowSeconds: 10, lockoutSeconds: 5 });
		limiter.hit(1);
		clock.advance(6 * SECOND);
		limiter.hit(1);
		clock.advance(4.5 * SECOND);
		expect(limiter.hit(1)).toBe('allowed');
		expect(limiter.hit(1)).toBe('limited');
	});
});
