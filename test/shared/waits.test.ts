// A request waiting for its turn under the rate limit (nodes/shared/waits.ts) when its run fails and the execution is
// cancelled: an item before the failing one keeps waiting while only the run failed, and stops once the execution
// is cancelled (docs/architecture.md#when-an-item-fails). And what a wait tells the user once the account's share came back.
import type { INode, NodeOperationError } from 'n8n-workflow';

import type { AweberContext } from '../../nodes/shared/aweberContext';
import { AccountRateLimiter, type AcquireOptions, type RateLimitSlot } from '../../nodes/shared/rateLimiter';
import { runItemOf } from '../../nodes/shared/runState';
import { acquireSlot } from '../../nodes/shared/waits';
import { ManualClock } from './manualClock';

/** A limiter that counts the waits it is asked for, and grants the 20th at once: a loop of waits ends the test, not the run. */
class CountingLimiter extends AccountRateLimiter {
	waits = 0;

	async acquire(options: AcquireOptions = {}): Promise<RateLimitSlot> {
		this.waits++;
		if (this.waits >= 20) return { waitedMs: 0, release: () => undefined };
		return await super.acquire(options);
	}
}

const settings = { requests: 1, windowMs: 60_000, apiBaseUrl: 'https://api.aweber.example' };
const tick = async () => await new Promise((resolve) => setImmediate(resolve));

function itemContext(cancel: AbortController, itemIndex: number, executeData: object): AweberContext & { getItemIndex(): number; getExecuteData(): object } {
	return {
		getNode: () => ({ name: 'AWeber Test' }) as INode,
		getCredentials: (async () => ({})) as unknown as AweberContext['getCredentials'],
		logger: { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined } as unknown as AweberContext['logger'],
		getExecutionCancelSignal: () => cancel.signal,
		helpers: { httpRequestWithAuthentication: (async () => undefined) as unknown as AweberContext['helpers']['httpRequestWithAuthentication'] },
		getItemIndex: () => itemIndex,
		getExecuteData: () => executeData,
	};
}

describe('A request waiting for the rate limit when its run fails, then the execution is cancelled', () => {
	it('the item before the failing one keeps waiting after the failure, and stops with the cancellation', async () => {
		const limiter = new CountingLimiter({ requests: 1, windowMs: 60_000 });
		// The one request of the window is under way: the next waits a minute.
		await limiter.acquire();
		const cancel = new AbortController();
		const context = itemContext(cancel, 0, {});
		const owner = runItemOf(context)!;
		const waiting = acquireSlot(
			context,
			{ key: 'waits-test', limiter, settings },
			{ priority: false, signal: AbortSignal.any([cancel.signal, owner.run.stop.signal]) },
			0,
			owner,
		).then(
			() => 'started',
			(error: NodeOperationError) => error.message,
		);

		// Item 2 failed the run: item 0 comes first in n8n's order and is still carried out.
		owner.run.failedItem = 2;
		owner.run.stop.abort();
		await tick();
		expect(await Promise.race([waiting, tick().then(() => 'still waiting')])).toBe('still waiting');

		cancel.abort();
		const stopped = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve('did not stop within a second'), 1_000))]);
		expect(stopped).toBe('Stopped waiting for the AWeber rate limit: the execution was cancelled or reached its timeout');
		// One wait before the failure, one after it: the cancellation ended the second, no loop of waits.
		expect(limiter.waits).toBe(3);
	});

	it('an item after the failing one stops waiting at once with "Not sent to AWeber"', async () => {
		const limiter = new CountingLimiter({ requests: 1, windowMs: 60_000 });
		await limiter.acquire();
		const cancel = new AbortController();
		const context = itemContext(cancel, 3, {});
		const owner = runItemOf(context)!;
		const waiting = acquireSlot(context, { key: 'waits-test', limiter, settings }, { priority: false, signal: owner.run.stop.signal }, 3, owner).catch(
			(error: NodeOperationError) => error.message,
		);
		owner.run.failedItem = 2;
		owner.run.failureMessage = 'Invalid email address';
		owner.run.stop.abort();
		expect(await waiting).toBe('Not sent to AWeber: item 2 failed first (Invalid email address)');
		cancel.abort();
	});
});

describe('A share of the account that came back to the credential\'s limit', () => {
	it('the first request after it says so in the log, once', async () => {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 120, windowMs: 60_000 }, clock);
		limiter.learning.lower(60);
		// Held, then rising while AWeber accepts every request: back at 120 within a dozen windows.
		await clock.advance(12 * 60_000);
		const logged: string[] = [];
		const context = { ...itemContext(new AbortController(), 0, {}), logger: { info: (line: string) => logged.push(line) } as unknown as AweberContext['logger'] };
		for (let request = 0; request < 2; request++) {
			const slot = await acquireSlot(context, { key: 'share-back', limiter, settings: { ...settings, requests: 120 } }, { priority: false }, 0, undefined);
			slot.release();
		}
		expect(logged).toEqual(['AWeber: no "Rate Limit Error" for a while: this process again sends up to the credential\'s 120 requests per minute']);
	});
});
