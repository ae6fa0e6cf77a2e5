// What the tests and the bench of the AWeber Polling Trigger at scale share: an import that puts thousands of
// subscribers in one AWeber second, and the API calls a poll makes.
import type { AweberTestbed } from '../harness/aweber';
import type { PollRunner } from '../harness/poll';

/** AWeber's clock moved this far past a second settles it for the trigger (settledSecond.ts's minute, and a second). */
export const SETTLE_SANDBOX_MS = 61_000;

/** `count` subscribers put on the list by AWeber's importer: all in the sandbox's current second. */
export function importInOneSecond(bed: AweberTestbed, listId: number, count: number, prefix: string): string[] {
	const emails = Array.from({ length: count }, (_, index) => `${prefix}.${index}@example.com`);
	bed.sandbox.importSubscribers(listId, emails);
	return emails;
}

/** The API calls one poll of `runner` makes, and what it emitted. */
export async function measuredPoll(bed: AweberTestbed, runner: PollRunner): Promise<{ calls: number; items: number }> {
	bed.sandbox.clearRequests();
	const items = await runner.poll();
	const calls = bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/')).length;
	return { calls, items: items?.length ?? 0 };
}
