import { NodeOperationError, sleep } from 'n8n-workflow';

import type { AccountSettings } from './accountSettings';
import { formatDuration, notify, shouldNotify } from './notices';
import type { AccountRateLimiter, RateLimitSlot } from './rateLimiter';
import { whenAborted } from './waitingRequests';
import { windowName } from './errors';
import { isDropped, notSentError } from './runFailure';
import type { RunItem } from './runState';
import type { AweberContext } from './aweberContext';

/*
 * A turn under the rate limit and a retry's backoff. A cancelled execution stops every wait; a failed run stops the
 * waits of the items after the failing one only (docs/architecture.md#when-an-item-fails).
 */

export async function acquireSlot(
	context: AweberContext,
	{ key, limiter, settings }: { key: string; limiter: AccountRateLimiter; settings: AccountSettings },
	options: { priority: boolean; signal?: AbortSignal },
	itemIndex: number | undefined,
	owner: RunItem | undefined,
): Promise<RateLimitSlot> {
	let slot;
	for (;;) {
		try {
			slot = await limiter.acquire(options);
			break;
		} catch {
			// The limiter only stops a wait (its one rejection, RateLimitWaitAborted) when the run failed or the execution
			// was cancelled. After a failed run, an item before the failing one comes first in n8n's order and is carried
			// out: it waits again, once, on the execution's cancellation only (so a second stop is the cancellation).
			const cancelSignal = context.getExecutionCancelSignal?.();
			if (owner && options.signal !== cancelSignal) {
				if (isDropped(owner.run, owner.index)) throw notSentError(context, owner.run, itemIndex);
				options = { ...options, signal: cancelSignal };
				continue;
			}
			throw new NodeOperationError(context.getNode(), 'Stopped waiting for the AWeber rate limit: the execution was cancelled or reached its timeout', {
				description: `${limiter.queued} more requests were waiting for this AWeber account, which allows ${settings.requests} requests per ${formatDuration(settings.windowMs)}. Send fewer items per execution (for example with Loop Over Items), or raise the workflow's timeout.`,
				itemIndex,
			});
		}
	}
	const recovered = limiter.learning.takeRecoveredShare();
	if (recovered !== undefined) {
		notify(context, 'info', `AWeber: no "Rate Limit Error" for a while: this process again sends up to the credential's ${recovered} requests per ${windowName(settings.windowMs)}`);
	}
	if (slot.waitedMs > settings.windowMs / 4 && shouldNotify(key, 'wait', settings.windowMs)) {
		const still = limiter.queued;
		const share = limiter.learning.share();
		notify(
			context,
			'info',
			`AWeber: waited ${formatDuration(slot.waitedMs)} to stay under the account's rate limit of ${settings.requests} requests per ${formatDuration(settings.windowMs)}` +
				(share < settings.requests ? ` (this process's share: ${share}, as another process or app uses the account)` : '') +
				(still > 0 ? `; ${still} more requests are waiting (about ${formatDuration(limiter.estimateWaitMs())} to go)` : ''),
		);
	}
	return slot;
}

export async function sleepUnlessStopped(
	context: AweberContext,
	ms: number,
	signal: AbortSignal | undefined,
	itemIndex: number | undefined,
	owner: RunItem | undefined,
): Promise<void> {
	const execution = context.getExecutionCancelSignal?.();
	// An item before the failing one in n8n's order is carried out: only a cancelled execution stops its wait.
	if (owner?.run.failedItem !== undefined && !isDropped(owner.run, owner.index)) signal = execution;
	if (!signal) return await sleep(ms);
	const cancelled = () =>
		owner && execution?.aborted !== true && isDropped(owner.run, owner.index)
			? notSentError(context, owner.run, itemIndex)
			: new NodeOperationError(context.getNode(), 'The execution was cancelled while waiting to retry an AWeber request', { itemIndex });
	const stopsThisItem = () => signal!.aborted && (execution?.aborted === true || !owner || owner.run.failedItem === undefined || isDropped(owner.run, owner.index));
	if (stopsThisItem()) throw cancelled();
	// Monotonic: a step of the wall clock does not stretch the wait.
	const until = performance.now() + ms;
	let stopListening: () => void = () => undefined;
	const aborted = new Promise<void>((resolve) => (stopListening = whenAborted(signal, resolve)));
	await Promise.race([sleep(ms), aborted]);
	stopListening();
	if (stopsThisItem()) throw cancelled();
	// The run failed after this item: it comes first in n8n's order, so its retry waits out its time.
	if (performance.now() < until) await sleepUnlessStopped(context, until - performance.now(), execution, itemIndex, owner);
}
