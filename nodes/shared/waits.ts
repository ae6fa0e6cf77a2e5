import { NodeOperationError, sleep } from 'n8n-workflow';

import type { AccountSettings } from './accountSettings';
import { whenAborted, type AccountRateLimiter, type RateLimitSlot } from './rateLimiter';
import { windowName } from './errors';
import { isDropped, notSentError } from './itemFailures';
import type { RunItem } from './runState';
import type { AweberContext } from './aweberContext';

/*
 * A turn under the rate limit and a retry's backoff, and what the node tells the user while it waits. A cancelled
 * execution stops every wait; a failed run stops the waits of the items after the failing one only
 * (docs/architecture.md#when-an-item-fails).
 */

export async function acquireSlot(
	context: AweberContext,
	{ key, limiter, settings }: { key: string; limiter: AccountRateLimiter; settings: AccountSettings },
	options: { priority: boolean; signal?: AbortSignal; execution?: string },
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
	const stopsThisItem = () => signal!.aborted && (execution?.aborted === true || !owner || isDropped(owner.run, owner.index));
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

// What the node tells the user while requests wait: at most one notice of a kind per credential and window.

/** When each kind of progress notice (waiting, timeout) was last given, per credential: a bulk run logs progress, not every request. */
const noticesByCredential = new Map<string, Map<string, number>>();

/** At most one notice of a kind per credential and window. */
export function shouldNotify(credentialKey: string, kind: string, windowMs: number): boolean {
	const byKind = noticesByCredential.get(credentialKey) ?? new Map<string, number>();
	noticesByCredential.set(credentialKey, byKind);
	const now = performance.now();
	if (now - (byKind.get(kind) ?? -Infinity) < windowMs) return false;
	byKind.set(kind, now);
	return true;
}

/**
 * n8n's log, and the browser console of a manual run (RoutingNode does not collect a declarative node's execution
 * hints). n8n's `sendMessageToUI` sends only in manual runs and logs its own failures; poll and hook contexts lack it.
 */
export function notify(context: AweberContext, level: 'info' | 'warn', message: string): void {
	context.logger[level](message, { node: context.getNode().name });
	(context as { sendMessageToUI?: (message: string) => void }).sendMessageToUI?.(`${context.getNode().name}: ${message}`);
}

/** A workflow timeout that its queued AWeber requests cannot meet: say so up front, not only when n8n stops it. */
export function warnIfTooLongForTimeout(context: AweberContext, credentialKey: string, limiter: AccountRateLimiter, settings: AccountSettings): void {
	if (limiter.queued < settings.requests) return;
	const timeoutSeconds = Number(context.getWorkflowSettings?.().executionTimeout);
	if (!(timeoutSeconds > 0)) return;
	const neededMs = limiter.estimateWaitMs();
	if (neededMs <= timeoutSeconds * 1000 || !shouldNotify(credentialKey, 'timeout', settings.windowMs)) return;
	notify(
		context,
		'warn',
		`AWeber: ${limiter.queued} requests are waiting for this account's rate limit of ${settings.requests} per ${formatDuration(settings.windowMs)}; they need about ${formatDuration(neededMs)}, longer than this workflow's timeout of ${formatDuration(timeoutSeconds * 1000)}. Send fewer items per execution or raise the timeout.`,
	);
}

export function formatDuration(ms: number): string {
	if (ms < 1000) return `${Math.round(ms)} ms`;
	const seconds = ms / 1000;
	if (seconds < 120) return `${Number(seconds.toFixed(seconds < 10 ? 1 : 0))} s`;
	const minutes = Math.floor(seconds / 60);
	return minutes < 120 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
