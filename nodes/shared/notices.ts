import type { AccountRateLimiter } from './rateLimiter';
import type { AccountSettings } from './accountSettings';
import type { AweberContext } from './aweberContext';

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
	const timeoutSeconds = Number(context.getWorkflowSettings?.()?.executionTimeout);
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
