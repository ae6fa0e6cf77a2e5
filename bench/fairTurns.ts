// Benchmark "interactive under bulk" (issue 50): turns shared between executions on one credential, against the
// first-come queue (the limiter's `turns: 'first-come'` option, the behaviour before) in the same run.
//   - single-item executions (a sign-up: Create, default Output, 2 calls) started every few seconds during a bulk
//     Create of 1,000 items (each Output): their latency, median and 95th percentile, in AWeber seconds;
//   - the account's throughput while the bulk runs, with the sign-ups and without (the bulk alone);
//   - two bulk executions started together and a third started halfway: each one's share of the requests over
//     their overlap.
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { N8nHarness } from '../test/harness';
import type { RequestLogEntry } from '../test/sandbox/types';
import { subscriberCreate } from './bulkAdd';
import { log, median, round } from './lib';
import type { RemoteSandbox } from './remoteSandbox';

type TurnOrder = 'fair' | 'first-come';

interface RateLimiterModule {
	rateLimiterFor(key: string, settings: { requests: number; windowMs: number }, options: { turns: TurnOrder }): { queued: number };
}

export interface FairTurnsContext {
	sandbox: RemoteSandbox;
	harness: N8nHarness;
	/** Items of the bulk (1000). */
	items: number;
	/** AWeber's window in real ms on the scaled sandbox clock. */
	windowMs: number;
	/** AWeber seconds between two sign-ups. */
	signUpEverySeconds: number;
}

export interface InterlopersRun {
	turns: TurnOrder;
	output: 'subscriber' | 'summary';
	signUps: number;
	/** Latency of the sign-up executions, AWeber seconds. */
	latencyMedianS: number;
	latencyP95S: number;
	latencyMaxS: number;
	/** Bulk items and sign-ups with no subscriber on the list afterwards. */
	lost: number;
	rateLimitRefusals: number;
	/** Every successful request (bulk and sign-ups) per AWeber minute, from the bulk's first to its last. */
	accountCallsPerMinute: number;
	/** The bulk's own subscribers per AWeber minute (its wall time). */
	bulkSubscribersPerMinute: number;
}

export interface AloneRun {
	turns: TurnOrder;
	output: 'subscriber' | 'summary';
	lost: number;
	rateLimitRefusals: number;
	accountCallsPerMinute: number;
	bulkSubscribersPerMinute: number;
}

export interface SharesRun {
	turns: TurnOrder;
	itemsEach: number;
	lost: number;
	rateLimitRefusals: number;
	/** Share of A and of B among their requests while both ran (%), before C joined and over the whole overlap. */
	pairShares: { a: number; b: number };
	/** Shares of A, B and C while all three ran (%). */
	threeShares: { a: number; b: number; c: number };
	/** When each finished, AWeber seconds from the start. */
	finishedAtS: { a: number; b: number; c: number };
}

export interface FairTurnsResults {
	signUpEverySeconds: number;
	items: number;
	alone: AloneRun[];
	interlopers: InterlopersRun[];
	shares: SharesRun[];
}

function limiterModule(): RateLimiterModule {
	// The built package, as the harness loads it: the same module instance the nodes use (as bench/multiProcessWorker.ts).
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(path.resolve(__dirname, '..', 'dist', 'nodes', 'shared', 'rateLimiter.js')) as RateLimiterModule;
}

/** A fresh sandbox state and a credential whose limiter hands out turns as asked. */
async function freshCredential(context: FairTurnsContext, turns: TurnOrder): Promise<{ credentialId: string; limiter: { queued: number } }> {
	await context.sandbox.reset();
	const credentialId = context.harness.addCredential(await context.sandbox.credentialData());
	const limiter = limiterModule().rateLimiterFor(credentialId, { requests: 120, windowMs: 60_000 }, { turns });
	return { credentialId, limiter };
}

const emails = (label: string, count: number): IDataObject[] => Array.from({ length: count }, (_, index) => ({ email: `${label}-${index}@example.com` }));

const addedEmails = (calls: RequestLogEntry[]) =>
	new Set(calls.filter((entry) => entry.method === 'POST' && entry.status === 201).map((entry) => String((entry.body as IDataObject | undefined)?.email ?? '').toLowerCase()));

function lostOf(calls: RequestLogEntry[], inputs: IDataObject[]): number {
	const added = addedEmails(calls);
	return inputs.filter((item) => !added.has(String(item.email).toLowerCase())).length;
}

/** Successful requests per AWeber minute between the first and the last request of the log (its times are real ms). */
function callsPerMinute(calls: RequestLogEntry[], windowMs: number): number {
	const ok = calls.filter((entry) => entry.status >= 200 && entry.status < 300);
	const times = calls.map((entry) => Date.parse(entry.time));
	const minutes = (Math.max(...times) - Math.min(...times)) / windowMs;
	return minutes > 0 ? round(ok.length / minutes) : 0;
}

function percentile(values: number[], p: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Waits until the bulk's items are prepared and queued (its first requests under way). */
async function untilQueued(limiter: { queued: number }, done: Promise<unknown>): Promise<void> {
	let finished = false;
	void done.then(() => (finished = true));
	while (!finished && limiter.queued === 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function bulkAlone(context: FairTurnsContext, turns: TurnOrder, output: 'subscriber' | 'summary'): Promise<AloneRun> {
	const { credentialId } = await freshCredential(context, turns);
	const input = emails(`alone-${turns}-${output}`, context.items);
	const startedAt = Date.now();
	await context.harness.runNode(subscriberCreate(context.sandbox, credentialId, output), input);
	const wallMs = Date.now() - startedAt;
	const calls = await context.sandbox.apiCalls();
	const run: AloneRun = {
		turns,
		output,
		lost: lostOf(calls, input),
		rateLimitRefusals: calls.filter((entry) => entry.status === 403).length,
		accountCallsPerMinute: callsPerMinute(calls, context.windowMs),
		bulkSubscribersPerMinute: round((context.items - lostOf(calls, input)) / (wallMs / context.windowMs)),
	};
	log(`fair turns: bulk alone ${JSON.stringify(run)}`);
	return run;
}

async function bulkWithSignUps(context: FairTurnsContext, turns: TurnOrder, output: 'subscriber' | 'summary'): Promise<InterlopersRun> {
	const { credentialId, limiter } = await freshCredential(context, turns);
	const input = emails(`bulk-${turns}-${output}`, context.items);
	const startedAt = Date.now();
	let bulkWallMs = 0;
	const bulk = context.harness.runNode(subscriberCreate(context.sandbox, credentialId, output), input).then((result) => {
		bulkWallMs = Date.now() - startedAt;
		return result;
	});
	let bulkDone = false;
	void bulk.then(() => (bulkDone = true));
	await untilQueued(limiter, bulk);
	const signUpInputs: IDataObject[] = [];
	const signUps: Array<Promise<number>> = [];
	const everyMs = (context.signUpEverySeconds * context.windowMs) / 60;
	while (!bulkDone) {
		const one = emails(`sign-up-${turns}-${output}-${signUps.length}`, 1);
		signUpInputs.push(...one);
		const asked = Date.now();
		// A sign-up: its own execution (the harness gives each run its own ID), Create with the default Output.
		signUps.push(context.harness.runNode(subscriberCreate(context.sandbox, credentialId, 'subscriber'), one).then(() => Date.now() - asked));
		await Promise.race([new Promise((resolve) => setTimeout(resolve, everyMs)), bulk]);
	}
	await bulk;
	const latencies = (await Promise.all(signUps)).map((ms) => (ms * 60) / context.windowMs);
	const calls = await context.sandbox.apiCalls();
	const run: InterlopersRun = {
		turns,
		output,
		signUps: signUps.length,
		latencyMedianS: round(median(latencies), 2),
		latencyP95S: round(percentile(latencies, 95), 2),
		latencyMaxS: round(Math.max(...latencies), 2),
		lost: lostOf(calls, [...input, ...signUpInputs]),
		rateLimitRefusals: calls.filter((entry) => entry.status === 403).length,
		accountCallsPerMinute: callsPerMinute(calls, context.windowMs),
		bulkSubscribersPerMinute: round((context.items - lostOf(calls, input)) / (bulkWallMs / context.windowMs)),
	};
	log(`fair turns: bulk with sign-ups ${JSON.stringify(run)}`);
	return run;
}

/** Share of each label's requests among those of `labels` sent between `from` and `to` (AWeber ms), in %. */
function sharesBetween(requests: Array<{ label: string; at: number }>, labels: string[], from: number, to: number): Record<string, number> {
	const inside = requests.filter((request) => request.at >= from && request.at <= to && labels.includes(request.label));
	return Object.fromEntries(labels.map((label) => [label, inside.length ? round((100 * inside.filter((request) => request.label === label).length) / inside.length) : 0]));
}

async function twoBulksAndOneHalfway(context: FairTurnsContext, turns: TurnOrder, itemsEach: number): Promise<SharesRun> {
	const { credentialId } = await freshCredential(context, turns);
	const inputs = { a: emails(`share-${turns}-a`, itemsEach), b: emails(`share-${turns}-b`, itemsEach), c: emails(`share-${turns}-c`, itemsEach) };
	const node = subscriberCreate(context.sandbox, credentialId, 'summary');
	const a = context.harness.runNode(node, inputs.a);
	const b = context.harness.runNode(node, inputs.b);
	// Halfway through A and B together (2 x itemsEach requests at 120 per AWeber minute).
	const halfwayMs = (itemsEach / 120) * context.windowMs;
	await Promise.race([new Promise((resolve) => setTimeout(resolve, halfwayMs)), Promise.all([a, b])]);
	const cStartedAt = Date.now();
	const c = context.harness.runNode(node, inputs.c);
	await Promise.all([a, b, c]);
	const calls = await context.sandbox.apiCalls();
	const requests = calls
		.filter((entry) => entry.method === 'POST' && entry.status === 201)
		.map((entry) => ({ label: /-(a|b|c)-\d+@/.exec(String((entry.body as IDataObject).email))?.[1] ?? '?', at: Date.parse(entry.time) }));
	const span = (label: string) => {
		const times = requests.filter((request) => request.label === label).map((request) => request.at);
		return { first: Math.min(...times), last: Math.max(...times) };
	};
	const [sa, sb, sc] = [span('a'), span('b'), span('c')];
	const aweberSeconds = (realMs: number) => round((realMs * 60) / context.windowMs);
	const start = Math.min(sa.first, sb.first);
	// While the executions ran together: from the first request of A and B (started together) until the first of them
	// ended; and from C's start until the first of the three ended (first come, B may send nothing in A's time).
	const pair = sharesBetween(requests, ['a', 'b'], start, Math.min(sa.last, sb.last));
	const three = sharesBetween(requests, ['a', 'b', 'c'], cStartedAt, Math.min(sa.last, sb.last, sc.last));
	const run: SharesRun = {
		turns,
		itemsEach,
		lost: lostOf(calls, [...inputs.a, ...inputs.b, ...inputs.c]),
		rateLimitRefusals: calls.filter((entry) => entry.status === 403).length,
		pairShares: { a: pair.a, b: pair.b },
		threeShares: { a: three.a, b: three.b, c: three.c },
		finishedAtS: { a: aweberSeconds(sa.last - start), b: aweberSeconds(sb.last - start), c: aweberSeconds(sc.last - start) },
	};
	log(`fair turns: two bulks and one halfway ${JSON.stringify(run)}`);
	return run;
}

export async function benchFairTurns(context: FairTurnsContext): Promise<FairTurnsResults> {
	const results: FairTurnsResults = { signUpEverySeconds: context.signUpEverySeconds, items: context.items, alone: [], interlopers: [], shares: [] };
	for (const output of ['summary', 'subscriber'] as const) {
		for (const turns of ['first-come', 'fair'] as const) {
			results.alone.push(await bulkAlone(context, turns, output));
			results.interlopers.push(await bulkWithSignUps(context, turns, output));
		}
	}
	for (const turns of ['first-come', 'fair'] as const) results.shares.push(await twoBulksAndOneHalfway(context, turns, Math.round(context.items * 0.6)));
	return results;
}

/** The section's targets: the fair queue's figures, each against the first-come baseline of the same run. */
export function fairTurnsTargets(results: FairTurnsResults): Record<string, { target: string; value: string; met: boolean | null }> {
	const targets: Record<string, { target: string; value: string; met: boolean | null }> = {};
	for (const run of results.interlopers.filter((one) => one.turns === 'fair')) {
		const baseline = results.interlopers.find((one) => one.turns === 'first-come' && one.output === run.output);
		const alone = results.alone.find((one) => one.turns === 'fair' && one.output === run.output);
		targets[`fairTurns.${run.output}.signUpP95`] = { target: '<= 2 s', value: `${run.latencyP95S} s (first come: ${baseline?.latencyP95S ?? '?'} s)`, met: run.latencyP95S <= 2 };
		const ratio = alone ? round(run.accountCallsPerMinute / alone.accountCallsPerMinute, 3) : NaN;
		targets[`fairTurns.${run.output}.throughputWithSignUps`] = { target: '>= 0.98x alone', value: `${ratio}x`, met: ratio >= 0.98 };
		targets[`fairTurns.${run.output}.lost`] = { target: '0', value: String(run.lost), met: run.lost === 0 };
		targets[`fairTurns.${run.output}.lockoutsAdded`] = { target: '0', value: String(run.rateLimitRefusals - (alone?.rateLimitRefusals ?? 0)), met: run.rateLimitRefusals <= (alone?.rateLimitRefusals ?? 0) };
	}
	const fair = results.shares.find((one) => one.turns === 'fair');
	if (fair) {
		const within = fair.pairShares.a >= 45 && fair.pairShares.a <= 55 && fair.pairShares.b >= 45 && fair.pairShares.b <= 55;
		targets['fairTurns.twoBulks.shares'] = { target: '45-55 % each', value: `${fair.pairShares.a} % / ${fair.pairShares.b} %`, met: within };
		targets['fairTurns.twoBulks.lost'] = { target: '0', value: String(fair.lost), met: fair.lost === 0 };
	}
	return targets;
}

/** The section of bench/RESULTS.md. */
export function fairTurnsMarkdown(results: FairTurnsResults, table: (header: string[], rows: string[][]) => string, note?: string): string {
	const latencyRows = results.interlopers.map((run) => {
		const alone = results.alone.find((one) => one.turns === run.turns && one.output === run.output);
		return [
			`${run.output === 'summary' ? 'Request Summary' : 'Subscriber From AWeber'}, ${run.turns}`,
			String(run.signUps),
			`${run.latencyMedianS} s`,
			`${run.latencyP95S} s`,
			`${run.latencyMaxS} s`,
			`${run.accountCallsPerMinute} / ${alone?.accountCallsPerMinute ?? '?'}`,
			alone ? `${round(run.accountCallsPerMinute / alone.accountCallsPerMinute, 3)}x` : '?',
			`${run.bulkSubscribersPerMinute} / ${alone?.bulkSubscribersPerMinute ?? '?'}`,
			String(run.lost),
			`${run.rateLimitRefusals} / ${alone?.rateLimitRefusals ?? '?'}`,
		];
	});
	const shareRows = results.shares.map((run) => [
		run.turns,
		String(run.itemsEach),
		`${run.pairShares.a} % / ${run.pairShares.b} %`,
		`${run.threeShares.a} % / ${run.threeShares.b} % / ${run.threeShares.c} %`,
		`${run.finishedAtS.a} s / ${run.finishedAtS.b} s / ${run.finishedAtS.c} s`,
		String(run.lost),
		String(run.rateLimitRefusals),
	]);
	return `## Interactive under bulk (turns between executions)

${note ? `${note}\n\n` : ''}A bulk Create of ${results.items} items on one credential; a one-item Create (Output "Subscriber From AWeber", 2 calls), each its own execution, started every ${results.signUpEverySeconds} AWeber seconds while the bulk runs. "first-come" is the limiter's queue before fair turns (the \`turns: 'first-come'\` option), measured in the same run. One run each.

${table(['bulk Output, turns', 'sign-ups', 'latency median', 'p95', 'max', 'account calls / min with sign-ups / bulk alone', 'ratio', 'bulk subscribers / min with / alone', 'lost', '403s with / alone'], latencyRows)}

- Latency: from starting the sign-up's execution to its end, in AWeber seconds (real time x the sandbox's time scale, so n8n's own work per execution, and a busy machine's delays, weigh that many times more than at AWeber's real pace).
- Account calls per minute: every successful request (the bulk's and the sign-ups') per AWeber minute from the first to the last (the target: with sign-ups at least 0.98x the bulk alone, fair turns waste none of the account's budget); the bulk's own subscribers per minute are lower with sign-ups by the turns they take, and include n8n's preparation of the 1000 items.

Two bulk Creates (Output "Request Summary") started together (A, B), a third (C) started halfway through them, on one credential; shares of the adds sent from the start until the first of A and B ended, and from C's start until the first of the three ended (target: A and B 45-55 % each):

${table(['turns', 'items each', 'A / B while both ran', 'A / B / C while all three ran', 'last request of A / B / C', 'lost', '403s'], shareRows)}
`;
}
