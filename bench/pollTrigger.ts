// The AWeber Polling Trigger after an import: API calls per poll, against the sandbox in this process on a clock a
// thousand times slower than real time (an import's 10,000 subscribers share one AWeber second). Calls, not time: the
// trigger's cost to a user is its share of the account's 120 requests a minute. Baseline in the same run: the same
// list with the position a poll stored while the second was recent (what earlier versions always stored, and what
// this version reads in full until AWeber's clock is a minute past that second).
// `BENCH_POLL_ONLY=1 npm run bench` runs it alone and merges its figures into bench/results.json.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { startTestbed, type AweberTestbed } from '../test/harness/aweber';
import { pollTrigger, UNLIMITED } from '../test/nodes/poll-trigger.helpers';
import { importInOneSecond, measuredPoll, SETTLE_SANDBOX_MS } from '../test/nodes/poll-trigger-scale.helpers';
import { log, median } from './lib';

export interface PollTriggerSummary {
	date: string;
	imported: number;
	/** Requests of the first poll after activation, a minute after the import. */
	activationCalls: number;
	/** Requests per idle poll afterwards (median of `idlePolls`), and each. */
	idleCalls: number;
	idleRuns: number[];
	/** The same list with a position stored while the second was recent (earlier versions): requests per idle poll. */
	baselineIdleCalls: number;
	/** Requests per poll to drain a backlog of 1,500 sign-ups a second apart (Max Events per Poll 1,000), activation first. */
	backlogCalls: number[];
	/** What a read from the newest entry needs at the least for that backlog (docs/triggers.md). */
	backlogLeast: number;
}

const IMPORTED = 10_000;
const IDLE_POLLS = 5;

async function idleFigures(bed: AweberTestbed): Promise<Pick<PollTriggerSummary, 'activationCalls' | 'idleCalls' | 'idleRuns' | 'baselineIdleCalls'>> {
	const { empty, customers } = bed.sandbox.seed.lists;
	// The baseline: watching while the import happens, so the stored second is recent (every id, no count).
	const watching = pollTrigger(bed, customers);
	await watching.poll();
	importInOneSecond(bed, customers, IMPORTED, 'baseline');
	while ((await watching.poll()) !== null);
	const recent = JSON.parse(JSON.stringify(watching.workflow.nodeStaticData)) as IDataObject;
	const baselineIdleCalls = (await measuredPoll(bed, watching)).calls;

	importInOneSecond(bed, empty, IMPORTED, 'import');
	bed.sandbox.clock.advance(SETTLE_SANDBOX_MS);
	const runner = pollTrigger(bed, empty);
	const activationCalls = (await measuredPoll(bed, runner)).calls;
	const idleRuns: number[] = [];
	for (let poll = 0; poll < IDLE_POLLS; poll++) idleRuns.push((await measuredPoll(bed, runner)).calls);
	if (recent.cursor === undefined) throw new Error('The baseline stored no position');
	return { activationCalls, idleCalls: median(idleRuns), idleRuns, baselineIdleCalls };
}

async function backlogFigures(bed: AweberTestbed): Promise<number[]> {
	const { customers } = bed.sandbox.seed.lists;
	const runner = pollTrigger(bed, customers);
	const calls = [(await measuredPoll(bed, runner)).calls];
	const emails = Array.from({ length: 1500 }, (_, index) => `backlog.${index}@example.com`);
	for (const email of emails) {
		bed.sandbox.importSubscribers(customers, [email]);
		bed.sandbox.clock.advance(1000);
	}
	bed.sandbox.clock.advance(SETTLE_SANDBOX_MS);
	for (let poll = 0; poll < 5; poll++) {
		const { calls: made, items } = await measuredPoll(bed, runner);
		calls.push(made);
		if (items === 0) break;
	}
	return calls;
}

export async function benchPollTrigger(): Promise<PollTriggerSummary> {
	const testbed = () => startTestbed({ timeScale: 0.001, rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });
	let bed = await testbed();
	try {
		const idle = await idleFigures(bed);
		await bed.stop();
		bed = await testbed();
		const backlogCalls = await backlogFigures(bed);
		const summary = { date: new Date().toISOString(), imported: IMPORTED, ...idle, backlogCalls, backlogLeast: 1 + 16 + 6 + 1 };
		log(`poll trigger: activation ${summary.activationCalls} calls, idle ${summary.idleCalls} (baseline ${summary.baselineIdleCalls}), backlog ${backlogCalls.join(' + ')} (least ${summary.backlogLeast})`);
		return summary;
	} finally {
		await bed.stop();
	}
}

/** The section of bench/RESULTS.md. */
export function pollTriggerMarkdown(summary: PollTriggerSummary | undefined): string {
	if (summary === undefined) return '';
	const backlog = summary.backlogCalls.reduce((sum, calls) => sum + calls, 0);
	return `
## AWeber Polling Trigger after an import

Measured with \`BENCH_POLL_ONLY=1 npm run bench\` (${summary.date}): API calls per poll against the sandbox (pages of 100).

| Scenario | Calls | Baseline (same run) | Ratio |
|---|---|---|---|
| Idle poll, ${summary.imported.toLocaleString('en-US')} subscribers sharing the newest second (median of ${summary.idleRuns.length}) | ${summary.idleCalls} | ${summary.baselineIdleCalls} (position stored while that second was recent, as earlier versions stored it) | ${(summary.idleCalls / summary.baselineIdleCalls).toFixed(3)} |
| First poll after activation, a minute after that import | ${summary.activationCalls} | | |
| Backlog of 1,500 sign-ups a second apart, Max Events per Poll 1,000 (activation, polls, idle poll) | ${summary.backlogCalls.join(' + ')} = ${backlog} | ${summary.backlogLeast} at the least from the newest entry | ${(backlog / summary.backlogLeast).toFixed(2)} |
`;
}

/** `BENCH_POLL_ONLY=1`: the poll trigger alone, merged into bench/results.json. */
export async function pollOnly(): Promise<void> {
	const benchDir = path.resolve(__dirname);
	const file = path.join(benchDir, 'results.json');
	const results = JSON.parse(readFileSync(file, 'utf8')) as { pollTrigger?: PollTriggerSummary };
	results.pollTrigger = await benchPollTrigger();
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	process.stdout.write(pollTriggerMarkdown(results.pollTrigger));
}
