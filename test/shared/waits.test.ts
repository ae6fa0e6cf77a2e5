// The waits of nodes/shared/waits.ts. A request waiting for its turn under the rate limit, or for a retry (its
// backoff), when its run fails and the execution is cancelled: an item before the failing one keeps waiting while only
// the run failed, and stops once the execution is cancelled (docs/architecture.md#when-an-item-fails). And what the
// node tells the user: a long wait, the share of the account back at the credential's limit, a queue longer than the
// workflow's timeout. Waits are read on a manual clock or jest's fake one, never measured.
import type { INode, NodeOperationError } from 'n8n-workflow';

import type { AweberContext } from '../../nodes/shared/aweberContext';
import { AccountRateLimiter, type AcquireOptions, type RateLimitSlot } from '../../nodes/shared/rateLimiter';
import { stopSignal } from '../../nodes/shared/itemFailures';
import { runItemOf, type RunState } from '../../nodes/shared/runState';
import { acquireSlot, sleepUnlessStopped, warnIfTooLongForTimeout } from '../../nodes/shared/waits';
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

describe('A request waiting for the rate limit where n8n gives no execution signal', () => {
	it('an item after the failing one stops waiting at once with "Not sent to AWeber"', async () => {
		const limiter = new CountingLimiter({ requests: 1, windowMs: 60_000 });
		await limiter.acquire();
		const context = { ...itemContext(new AbortController(), 3, {}), getExecutionCancelSignal: undefined };
		const owner = runItemOf(context)!;
		const waiting = acquireSlot(context, { key: 'waits-test', limiter, settings }, { priority: false, signal: stopSignal(undefined, owner.run) }, 3, owner).catch(
			(error: Error) => error.message,
		);
		owner.run.failedItem = 2;
		owner.run.failureMessage = 'Invalid email address';
		owner.run.stop.abort();
		expect(await waiting).toBe('Not sent to AWeber: item 2 failed first (Invalid email address)');
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

describe('What a long wait for the rate limit tells the user', () => {
	let credential = 0;

	/**
	 * A limiter on a manual clock allowing `requests` per `windowMs`, whose window this process's first requests fill
	 * (all of its share, when `share` lowers it); then `waiting` requests queue `enqueueAfterMs` later. Returns the log.
	 */
	async function noticesOfWait(
		windowMs: number,
		{ requests = 1, share, waiting = 1, enqueueAfterMs = 0, editor }: { requests?: number; share?: number; waiting?: number; enqueueAfterMs?: number; editor?: unknown[][] } = {},
	) {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests, windowMs }, clock);
		if (share !== undefined) limiter.learning.lower(share);
		for (let sent = 0; sent < (share ?? requests); sent++) (await limiter.acquire()).release();
		await clock.advance(enqueueAfterMs);
		const logged: unknown[] = [];
		const context = {
			...itemContext(new AbortController(), 0, {}),
			// With metadata (the node's name) when the caller looks at the editor too.
			logger: { info: (...line: unknown[]) => logged.push(editor ? line : line[0]) } as unknown as AweberContext['logger'],
			// n8n's browser console of a manual run.
			...(editor ? { sendMessageToUI: (...message: unknown[]) => editor.push(message) } : {}),
		};
		const pacing = { key: `wait-notice-${credential++}`, limiter, settings: { ...settings, requests, windowMs } };
		const started = Array.from({ length: waiting }, async () => (await acquireSlot(context, pacing, { priority: false }, 0, undefined)).release());
		await clock.advance(2 * (waiting + 1) * windowMs);
		await Promise.all(started);
		return logged;
	}

	it.each([
		// A request counts a window and 1 % after its answer: the first waiting one waits that long.
		[500, '505 ms', '500 ms'],
		[1_000, '1 s', '1 s'],
		[8_000, '8.1 s', '8 s'],
		[60_000, '61 s', '60 s'],
		[120_000, '2 min 1 s', '2 min 0 s'],
		[150_000, '2 min 32 s', '2 min 30 s'],
		[7_200_000, '2 h 1 min', '2 h 0 min'],
		[9_000_000, '2 h 31 min', '2 h 30 min'],
	])('a window of %i ms: says how long the request waited and the limit, in readable units', async (windowMs, waited, window) => {
		expect(await noticesOfWait(windowMs)).toEqual([`AWeber: waited ${waited} to stay under the account's rate limit of 1 requests per ${window}`]);
	});

	it('says how many requests still wait and about how long they need, once a window', async () => {
		// The second of three waits a window, and each after it one more.
		expect(await noticesOfWait(60_000, { waiting: 3 })).toEqual([
			"AWeber: waited 61 s to stay under the account's rate limit of 1 requests per 60 s; 2 more requests are waiting (about 3 min 2 s to go)",
		]);
	});

	it('names this process\'s share when another process or app uses the account', async () => {
		expect(await noticesOfWait(60_000, { requests: 4, share: 2 })).toEqual([
			"AWeber: waited 61 s to stay under the account's rate limit of 4 requests per 60 s (this process's share: 2, as another process or app uses the account)",
		]);
	});

	it('in a manual run, shows it in the editor\'s console too, naming the node, and logs it with the node\'s name', async () => {
		const editor: unknown[][] = [];
		const notice = "AWeber: waited 61 s to stay under the account's rate limit of 1 requests per 60 s";
		expect(await noticesOfWait(60_000, { editor })).toEqual([[notice, { node: 'AWeber Test' }]]);
		expect(editor).toEqual([[`AWeber Test: ${notice}`]]);
	});

	it('says nothing of a wait of a quarter window or less', async () => {
		// Queued a quarter window before the full window's request stops counting (60.6 s after its answer).
		expect(await noticesOfWait(60_000, { enqueueAfterMs: 60_600 - 15_000 })).toEqual([]);
		expect(await noticesOfWait(60_000, { enqueueAfterMs: 60_600 - 15_001 })).toHaveLength(1);
	});
});

describe('A retry\'s wait (its backoff) when the execution is cancelled or the run fails', () => {
	// n8n's clock is faked: each wait's outcome is read at a known point of its time, not measured.
	beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] }));
	afterEach(() => jest.useRealTimers());

	/** Item `index` of a run (its own execute data) waiting `ms` to retry, as sendWithPolicies.ts waits; settles to a word or the error. */
	function retryWait(index: number, ms = 1_000) {
		const cancel = new AbortController();
		const context = itemContext(cancel, index, runKey);
		const owner = runItemOf(context)!;
		const outcome: { now?: string | NodeOperationError } = {};
		void sleepUnlessStopped(context, ms, stopSignal(cancel.signal, owner.run), index, owner).then(
			() => (outcome.now = 'waited'),
			(error: NodeOperationError) => (outcome.now = error),
		);
		return { cancel, run: owner.run, outcome };
	}
	let runKey: object;
	beforeEach(() => (runKey = {}));
	const failRun = (run: RunState) => {
		run.failedItem = 2;
		run.failureMessage = 'Invalid email address';
		run.stop.abort();
	};

	it('waits its whole time when nothing stops it', async () => {
		const { outcome } = retryWait(0);
		await jest.advanceTimersByTimeAsync(999);
		expect(outcome.now).toBeUndefined();
		await jest.advanceTimersByTimeAsync(1);
		expect(outcome.now).toBe('waited');
	});

	it('waits its whole time where nothing can stop it (no execution to cancel, as in a hook or a load of options)', async () => {
		const context = { ...itemContext(new AbortController(), 0, {}), getExecutionCancelSignal: undefined };
		let outcome: unknown;
		void sleepUnlessStopped(context, 1_000, undefined, undefined, undefined).then(
			() => (outcome = 'waited'),
			(error: Error) => (outcome = error),
		);
		await jest.advanceTimersByTimeAsync(999);
		expect(outcome).toBeUndefined();
		await jest.advanceTimersByTimeAsync(1);
		expect(outcome).toBe('waited');
	});

	it('stops with an error that says so, on the item it was for', async () => {
		const { cancel, outcome } = retryWait(4);
		await jest.advanceTimersByTimeAsync(300);
		cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect((outcome.now as NodeOperationError).message).toBe('The execution was cancelled while waiting to retry an AWeber request');
		expect((outcome.now as NodeOperationError).context.itemIndex).toBe(4);
	});

	it('stops with that error outside a node run too (no item to name)', async () => {
		const cancel = new AbortController();
		const context = { ...itemContext(cancel, 0, {}), getItemIndex: undefined };
		const waiting = sleepUnlessStopped(context, 1_000, cancel.signal, undefined, undefined).catch((error: NodeOperationError) => error.message);
		await jest.advanceTimersByTimeAsync(300);
		cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(await Promise.race([waiting, Promise.resolve('still waiting')])).toBe('The execution was cancelled while waiting to retry an AWeber request');
	});

	it('an item after the failing one says the execution was cancelled when it was, not that the run failed', async () => {
		const { cancel, run, outcome } = retryWait(3);
		await jest.advanceTimersByTimeAsync(300);
		cancel.abort();
		failRun(run);
		await jest.advanceTimersByTimeAsync(0);
		expect((outcome.now as NodeOperationError).message).toBe('The execution was cancelled while waiting to retry an AWeber request');
	});

	it('an item after the failing one stops with "Not sent to AWeber" where n8n gives no execution signal', async () => {
		const context = { ...itemContext(new AbortController(), 3, runKey), getExecutionCancelSignal: undefined };
		const owner = runItemOf(context)!;
		const waiting = sleepUnlessStopped(context, 1_000, stopSignal(undefined, owner.run), 3, owner).catch((error: Error) => error.message);
		await jest.advanceTimersByTimeAsync(300);
		failRun(owner.run);
		await jest.advanceTimersByTimeAsync(0);
		expect(await Promise.race([waiting, Promise.resolve('still waiting')])).toBe('Not sent to AWeber: item 2 failed first (Invalid email address)');
	});

	it('does not start when the execution was already cancelled', async () => {
		const cancel = new AbortController();
		cancel.abort();
		const context = itemContext(cancel, 0, runKey);
		const owner = runItemOf(context)!;
		const waiting = sleepUnlessStopped(context, 1_000, stopSignal(cancel.signal, owner.run), 0, owner).catch((error: NodeOperationError) => error.message);
		await jest.advanceTimersByTimeAsync(0);
		expect(await Promise.race([waiting, Promise.resolve('still waiting')])).toBe('The execution was cancelled while waiting to retry an AWeber request');
	});

	it('an item after the failing one stops with "Not sent to AWeber" when the run fails', async () => {
		const { run, outcome } = retryWait(3);
		await jest.advanceTimersByTimeAsync(300);
		failRun(run);
		await jest.advanceTimersByTimeAsync(0);
		expect((outcome.now as NodeOperationError).message).toBe('Not sent to AWeber: item 2 failed first (Invalid email address)');
	});

	it('an item before the failing one waits out its time after the failure, and a cancellation then stops it', async () => {
		const { run, outcome } = retryWait(0);
		await jest.advanceTimersByTimeAsync(300);
		failRun(run);
		await jest.advanceTimersByTimeAsync(699);
		expect(outcome.now).toBeUndefined();
		await jest.advanceTimersByTimeAsync(1);
		expect(outcome.now).toBe('waited');

		// Its next retry, in the failed run: only the cancellation stops it, and it says so.
		const next = retryWait(1);
		failRun(next.run);
		await jest.advanceTimersByTimeAsync(300);
		expect(next.outcome.now).toBeUndefined();
		next.cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect((next.outcome.now as NodeOperationError).message).toBe('The execution was cancelled while waiting to retry an AWeber request');
	});
});

describe('Queued requests that cannot finish within the workflow\'s timeout', () => {
	let credential = 0;

	/**
	 * One request per 100 s window (a request counts 101 s): one in flight and `queued` waiting on a manual clock, so
	 * that they need (queued + 1) × 101 s. Returns what the node logs about the workflow's `settings`.
	 */
	async function warnings(queued: number, workflowSettings: { executionTimeout?: number } | undefined) {
		const clock = new ManualClock();
		const limiter = new AccountRateLimiter({ requests: 1, windowMs: 100_000 }, clock);
		await limiter.acquire();
		for (let index = 0; index < queued; index++) void limiter.acquire();
		const logged: string[] = [];
		const context = {
			...itemContext(new AbortController(), 0, {}),
			logger: { warn: (line: string) => logged.push(line) } as unknown as AweberContext['logger'],
			getWorkflowSettings: workflowSettings === undefined ? undefined : () => workflowSettings,
		};
		const key = `timeout-warning-${credential++}`;
		// Every request checks before its turn; the warning comes once a window.
		for (let request = 0; request < 3; request++) warnIfTooLongForTimeout(context, key, limiter, { ...settings, requests: 1, windowMs: 100_000 });
		return logged;
	}

	it('warns once, with the numbers, when they need longer than the timeout', async () => {
		expect(await warnings(2, { executionTimeout: 302 })).toEqual([
			"AWeber: 2 requests are waiting for this account's rate limit of 1 per 100 s; they need about 5 min 3 s, longer than this workflow's timeout of 5 min 2 s. Send fewer items per execution or raise the timeout.",
		]);
	});

	it('says nothing when they need exactly the timeout, or less', async () => {
		expect(await warnings(2, { executionTimeout: 303 })).toEqual([]);
	});

	it('says nothing while fewer than a window\'s worth of requests wait', async () => {
		expect(await warnings(0, { executionTimeout: 100 })).toEqual([]);
		expect(await warnings(1, { executionTimeout: 100 })).toHaveLength(1);
	});

	it('says nothing when the workflow has no timeout (-1, 0, none, or no settings to read)', async () => {
		expect(await warnings(2, { executionTimeout: -1 })).toEqual([]);
		expect(await warnings(2, { executionTimeout: 0 })).toEqual([]);
		expect(await warnings(2, {})).toEqual([]);
		expect(await warnings(2, undefined)).toEqual([]);
	});
});
