// `npm run bench`: throughput, calls and memory of the AWeber nodes against the sandbox on a scaled clock.
// Writes bench/results.json and bench/RESULTS.md and prints a table. Settings (environment):
//   BENCH_TIME_SCALE (10: AWeber's 60 s window lasts 6 s), BENCH_RUNS (3 runs of each bulk add: ours with each
//   Output, the HTTP Request node with default settings, and its best Batching setting, found by one run of each
//   candidate and then run until it has BENCH_RUNS runs),
//   BENCH_ITEMS (1000), BENCH_RETURN_ALL_RUNS (5), BENCH_MEMORY_RUNS (3), BENCH_SEED_SIZE (10000),
//   BENCH_RETURN_ALL_TIME_SCALE (120: Return All only waits for a fresh window between reads, so a faster
//   clock only shortens those waits), BENCH_MP_ITEMS (500 subscribers per process in the multi-process scenario),
//   BENCH_MP_PROCESSES (1,2,3), BENCH_SYNC_SIZE (10000 subscribers on the list kept in sync; the source has 1 % changed,
//   0.5 % new, 0.5 % removed), BENCH_SYNC_BASELINE_ROWS (1000 rows of Create or Update, scaled to the source).
//   BENCH_REPORT_ONLY=1 writes RESULTS.md again from results.json; BENCH_MULTI_ONLY=1 runs only the multi-process
//   scenarios, BENCH_SYNC_ONLY=1 only the list sync, BENCH_POLL_ONLY=1 only the poll trigger after an import,
//   BENCH_ENGAGE_ONLY=1 only the Polling Trigger's calls per poll with 3 broadcasts in the window (Broadcast Opened,
//   Link Clicked), BENCH_FAIR_ONLY=1 only "interactive under bulk" (bench/fairTurns.ts; BENCH_FAIR_SIGNUP_EVERY: AWeber
//   seconds between sign-ups, 5), and each merges its figures into results.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';

import { N8nHarness } from '../test/harness';
import {
	benchBestHttpRequestBatching,
	benchHttpRequestBulkAdd,
	benchOurBulkAdd,
	loadHttpRequestNode,
	type BestBatchingSummary,
	type BulkSummary,
} from './bulkAdd';
import { benchCallsPerOperation, type OperationCalls } from './callsPerOperation';
import { benchMultiProcess, benchOtherApp, type MultiProcessFigures, type MultiProcessRow, type OtherAppRow } from './multiProcess';
import { benchEngagementPoll } from './engagementPoll';
import { benchFairTurns, fairTurnsMarkdown, fairTurnsTargets, type FairTurnsResults } from './fairTurns';
import { bytes, log, machine, round } from './lib';
import { benchListSync, type ListSyncSummary } from './listSync';
import { listSyncMarkdown, listSyncTargets } from './listSyncReport';
import { benchPollTrigger, pollOnly, pollTriggerMarkdown, type PollTriggerSummary } from './pollTrigger';
import { RemoteSandbox, stopAllSandboxes } from './remoteSandbox';
import { benchReturnAll, type ReturnAllSummary } from './returnAll';

const setting = (name: string, fallback: number) => (Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback);

const settings = {
	timeScale: setting('BENCH_TIME_SCALE', 10),
	runs: setting('BENCH_RUNS', 3),
	items: setting('BENCH_ITEMS', 1000),
	returnAllRuns: setting('BENCH_RETURN_ALL_RUNS', 5),
	memoryRuns: setting('BENCH_MEMORY_RUNS', 3),
	seedSize: setting('BENCH_SEED_SIZE', 10000),
	returnAllTimeScale: setting('BENCH_RETURN_ALL_TIME_SCALE', 120),
	multiProcessItems: setting('BENCH_MP_ITEMS', 500),
	multiProcessCounts: (process.env.BENCH_MP_PROCESSES ?? '1,2,3').split(',').map(Number).filter((count) => count > 0),
	syncSize: setting('BENCH_SYNC_SIZE', 10000),
	syncBaselineRows: setting('BENCH_SYNC_BASELINE_ROWS', 1000),
	/** AWeber's limit: 120 requests per 60 s. */
	limit: 120,
};
const windowMs = 60_000 / settings.timeScale;

interface Results {
	command: string;
	date: string;
	durationSeconds: number;
	machine: ReturnType<typeof machine> & { loadAverage1mAtStart: number; loadAverage1mAtEnd: number };
	settings: typeof settings & { windowRealMs: number };
	bulkAdd: BulkSummary & {
		baseline: (BulkSummary & { node: string; error?: string }) | { unavailable: string };
		baselineWithBatching?: BestBatchingSummary & { node: string };
	};
	/** Our Subscriber node's Create with "Output: Request Summary" (one call per add). */
	bulkAddFast: BulkSummary;
	/** Subscribers per minute (medians of the same `npm run bench`) divided by another's. */
	bulkAddRatios: Record<string, number | string>;
	returnAll: ReturnAllSummary;
	callsPerOperation: Record<string, OperationCalls>;
	/** Several n8n processes on one account (K = 1, 2, 3), with the share learning and without (baseline). */
	multiProcess?: MultiProcessRow[];
	/** One n8n process beside another app sending 40 requests per minute to the account (started with it, or already running). */
	otherApp?: OtherAppRow[];
	/** When the multi-process figures were measured, and with which settings, when not in the same run as the rest. */
	multiProcessRun?: { date: string; durationSeconds: number; itemsPerProcess: number; timeScale: number; loadAverage1mAtStart: number };
	/** Keeping a list in sync: the example workflow against Create or Update for every row. */
	listSync?: ListSyncSummary;
	/** When the list sync was measured, when not in the same run as the rest. */
	listSyncRun?: { date: string; durationSeconds: number; loadAverage1mAtStart: number };
	/** The AWeber Polling Trigger's calls per poll after a 10,000-subscriber import (bench/pollTrigger.ts). */
	pollTrigger?: PollTriggerSummary;
	/** Interactive under bulk: turns shared between executions, against the first-come queue (bench/fairTurns.ts). */
	fairTurns?: FairTurnsResults;
	fairTurnsRun?: { date: string; durationSeconds: number; loadAverage1mAtStart: number };
	targets: Record<string, { target: string; value: string; met: boolean | null }>;
}

async function main(): Promise<void> {
	const startedAt = Date.now();
	const loadAtStart = round(loadavg()[0], 2);
	const harness = new N8nHarness();
	log(`settings: ${JSON.stringify(settings)}; AWeber's window lasts ${windowMs} ms`);

	const bulkSandbox = await RemoteSandbox.start({ timeScale: settings.timeScale });
	const context = { sandbox: bulkSandbox, harness, items: settings.items, runs: settings.runs, limit: settings.limit, windowMs };
	const ours = await benchOurBulkAdd(context, 'subscriber');
	const fast = await benchOurBulkAdd(context, 'summary');
	const httpRequest = loadHttpRequestNode(harness);
	let baseline: Results['bulkAdd']['baseline'];
	let baselineWithBatching: Results['bulkAdd']['baselineWithBatching'];
	if ('error' in httpRequest) {
		baseline = { unavailable: `n8n-nodes-base could not be loaded: ${httpRequest.error}` };
	} else {
		const node = `n8n-nodes-base.httpRequest v${httpRequest.version} (n8n-nodes-base ${httpRequest.packageVersion})`;
		baseline = { node, ...(await benchHttpRequestBulkAdd(context, { label: 'http-default', version: httpRequest.version })) };
		baselineWithBatching = { node, ...(await benchBestHttpRequestBatching(context, httpRequest.version)) };
	}
	const callsPerOperation = await benchCallsPerOperation(bulkSandbox, harness);
	const fairTurns = await measureFairTurns(bulkSandbox, harness);
	await bulkSandbox.stop();
	const multi = await measureMultiProcess();

	log(`seeding a list of ${settings.seedSize} subscribers`);
	const listSandbox = await RemoteSandbox.start({ timeScale: settings.returnAllTimeScale, seedSize: settings.seedSize });
	const returnAll = await benchReturnAll({
		sandbox: listSandbox,
		harness,
		entries: settings.seedSize,
		runs: settings.returnAllRuns,
		memoryRuns: settings.memoryRuns,
		windowMs: 60_000 / settings.returnAllTimeScale,
	});
	await listSandbox.stop();
	const listSync = await measureListSync(harness);
	const pollTrigger = await benchPollTrigger();
	const engagement = await benchEngagementPoll();

	const results: Results = {
		command: 'npm run bench',
		date: new Date().toISOString(),
		durationSeconds: Math.round((Date.now() - startedAt) / 1000),
		machine: { ...machine(), loadAverage1mAtStart: loadAtStart, loadAverage1mAtEnd: round(loadavg()[0], 2) },
		settings: { ...settings, windowRealMs: windowMs },
		bulkAdd: { ...ours, baseline, ...(baselineWithBatching ? { baselineWithBatching } : {}) },
		bulkAddFast: fast,
		bulkAddRatios: ratios(ours, fast, baseline, baselineWithBatching),
		returnAll,
		callsPerOperation,
		multiProcess: multi.multiProcess,
		otherApp: multi.otherApp,
		listSync,
		pollTrigger,
		fairTurns,
		targets: {
			...fairTurnsTargets(fairTurns),
			...targets(ours, fast, baselineWithBatching, returnAll, callsPerOperation),
			...multiProcessTargets(multi.multiProcess, multi.otherApp),
			...listSyncTargets(listSync),
			...engagement.targets,
		},
	};
	const benchDir = path.resolve(__dirname);
	writeFileSync(path.join(benchDir, 'results.json'), `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(path.join(benchDir, 'RESULTS.md'), markdown(results));
	process.stdout.write(`${table(results)}\n`);
	log(`wrote bench/results.json and bench/RESULTS.md in ${results.durationSeconds} s`);
}

async function measureMultiProcess(): Promise<{ multiProcess: MultiProcessRow[]; otherApp: OtherAppRow[] }> {
	const sandbox = await RemoteSandbox.start({ timeScale: settings.timeScale });
	try {
		const context = { sandbox, itemsPerProcess: settings.multiProcessItems, windowMs };
		log(`multi-process: ${settings.multiProcessCounts.join(', ')} processes x ${settings.multiProcessItems} subscribers, with and without the share learning`);
		const multiProcess = await benchMultiProcess(context, settings.multiProcessCounts);
		const otherApp = await benchOtherApp(context);
		return { multiProcess, otherApp };
	} finally {
		await sandbox.stop();
	}
}

function multiProcessTargets(rows: MultiProcessRow[], otherApp: OtherAppRow[]): Results['targets'] {
	const result: Results['targets'] = {};
	// Beside another app: nothing lost, and fair turns add no lockout to first-come turns' (they may find the other app
	// later: docs/rate-limits.md#turns-between-executions says what that costs, and the table shows it).
	for (const row of otherApp) {
		const name = `otherApp.${otherAppCase(row).key}`;
		result[`${name}.lost`] = { target: '0', value: String(row.withLearning.lost), met: row.withLearning.lost === 0 };
		result[`${name}.accountLockouts`] = {
			target: `<= first-come turns' (${row.firstComeTurns.accountLockouts})`,
			value: String(row.withLearning.accountLockouts),
			met: row.withLearning.accountLockouts <= row.firstComeTurns.accountLockouts,
		};
	}
	for (const row of rows) {
		result[`multiProcess.${row.processes}.lost`] = { target: '0', value: String(row.lost), met: row.lost === 0 };
		if (row.processes < 2) continue;
		result[`multiProcess.${row.processes}.subscribersPerMinute`] = { target: '>= 100', value: String(row.subscribersPerMinute), met: row.subscribersPerMinute >= 100 };
		result[`multiProcess.${row.processes}.accountLockouts`] = { target: '<= 2', value: String(row.accountLockouts), met: row.accountLockouts <= 2 };
	}
	return result;
}

async function measureListSync(harness: N8nHarness): Promise<ListSyncSummary> {
	const size = settings.syncSize;
	// 1 % changed, 0.5 % new and 0.5 % removed: a night of a CRM's changes (issue 35's scenario for 10,000).
	const changes = { changed: Math.round(size / 100), added: Math.round(size / 200), removed: Math.round(size / 200) };
	return await benchListSync(harness, { size, ...changes, baselineRows: Math.min(settings.syncBaselineRows, size), timeScale: settings.timeScale });
}

/** `BENCH_SYNC_ONLY=1`: the list sync alone, merged into bench/results.json. */
async function syncOnly(): Promise<void> {
	const startedAt = Date.now();
	const loadAtStart = round(loadavg()[0], 2);
	const benchDir = path.resolve(__dirname);
	const results = JSON.parse(readFileSync(path.join(benchDir, 'results.json'), 'utf8')) as Results;
	results.listSync = await measureListSync(new N8nHarness());
	results.listSyncRun = { date: new Date().toISOString(), durationSeconds: Math.round((Date.now() - startedAt) / 1000), loadAverage1mAtStart: loadAtStart };
	for (const name of Object.keys(results.targets)) if (name.startsWith('listSync.')) delete results.targets[name];
	Object.assign(results.targets, listSyncTargets(results.listSync));
	writeFileSync(path.join(benchDir, 'results.json'), `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(path.join(benchDir, 'RESULTS.md'), markdown(results));
	process.stdout.write(`${textTable(['Target', 'value', 'target', ''], targetRows(results))}\n`);
	log(`merged the list sync figures into bench/results.json and bench/RESULTS.md in ${results.listSyncRun.durationSeconds} s`);
}

/** `BENCH_MULTI_ONLY=1`: the multi-process scenarios alone, merged into bench/results.json. */
async function multiOnly(): Promise<void> {
	const startedAt = Date.now();
	const loadAtStart = round(loadavg()[0], 2);
	const benchDir = path.resolve(__dirname);
	const results = JSON.parse(readFileSync(path.join(benchDir, 'results.json'), 'utf8')) as Results;
	const multi = await measureMultiProcess();
	results.multiProcess = multi.multiProcess;
	results.otherApp = multi.otherApp;
	results.multiProcessRun = {
		date: new Date().toISOString(),
		durationSeconds: Math.round((Date.now() - startedAt) / 1000),
		itemsPerProcess: settings.multiProcessItems,
		timeScale: settings.timeScale,
		loadAverage1mAtStart: loadAtStart,
	};
	for (const name of Object.keys(results.targets)) if (name.startsWith('multiProcess.')) delete results.targets[name];
	Object.assign(results.targets, multiProcessTargets(multi.multiProcess, multi.otherApp));
	writeFileSync(path.join(benchDir, 'results.json'), `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(path.join(benchDir, 'RESULTS.md'), markdown(results));
	process.stdout.write(`${textTable(MULTI_HEADER, multiRows(results))}\n\n${textTable(OTHER_APP_HEADER, otherAppRows(results))}\n`);
	log(`merged the multi-process figures into bench/results.json and bench/RESULTS.md in ${results.multiProcessRun.durationSeconds} s`);
}

const MULTI_HEADER = ['processes', 'items each', 'lost', '403s', 'lockouts', 'subscribers / min', 'baseline: lost', '403s', 'lockouts', 'subscribers / min', 'ratio'];

function multiRows(results: Results): string[][] {
	return (results.multiProcess ?? []).map((row) => [
		String(row.processes),
		String(row.itemsPerProcess),
		String(row.lost),
		String(row.rateLimitRefusals),
		String(row.accountLockouts),
		String(row.subscribersPerMinute),
		String(row.baseline.lost),
		String(row.baseline.rateLimitRefusals),
		String(row.baseline.accountLockouts),
		String(row.baseline.subscribersPerMinute),
		row.baseline.subscribersPerMinute > 0 ? `${ratio(row.subscribersPerMinute, row.baseline.subscribersPerMinute)}x` : 'n/a',
	]);
}

/** The other-app scenario's two cases: a key for the targets, words for the tables. */
function otherAppCase(row: OtherAppRow): { key: string; words: string } {
	return row.appStartedWindowsBefore > 0
		? { key: 'appAlreadyRunning', words: `the app already running (${row.appStartedWindowsBefore} windows before)` }
		: { key: 'startedTogether', words: 'the app started with the bulk' };
}

const OTHER_APP_HEADER = [
	'one process + other app (40 / min)',
	'lost',
	'403s (both)',
	'lockouts',
	'first refused (window)',
	'our subscribers / min',
	'÷ first-come turns',
	'other app requests',
];

function otherAppRows(results: Results): string[][] {
	return (results.otherApp ?? []).flatMap((other) => {
		const row = (name: string, figures: OtherAppRow['baseline']) => [
			`beside ${otherAppCase(other).words}: ${name}`,
			String(figures.lost),
			String(figures.rateLimitRefusals),
			String(figures.accountLockouts),
			String(figures.perProcess?.[0]?.firstRefusalAtWindows ?? '-'),
			String(figures.subscribersPerMinute),
			other.firstComeTurns.subscribersPerMinute > 0 ? `${round(figures.subscribersPerMinute / other.firstComeTurns.subscribersPerMinute, 2)}x` : '-',
			String(figures.otherAppRequests),
		];
		return [
			row('share learning, fair turns (default)', other.withLearning),
			row('share learning, first-come turns', other.firstComeTurns),
			row('without the learning (baseline)', other.baseline),
		];
	});
}

/** A share trail in short: `120@0.4, measuring from 1.5 (pace 119 to 106), 65@2.06`. */
function describeShares(shares: NonNullable<MultiProcessFigures['perProcess']>[number]['shares']): string {
	const parts: string[] = [];
	for (let index = 0; index < shares.length; index++) {
		const [at, share, measuring] = shares[index];
		if (measuring === undefined) {
			parts.push(`${share}@${at}`);
			continue;
		}
		let last = index;
		while (last + 1 < shares.length && shares[last + 1][2] === 'measuring') last++;
		// The first sample is taken at the refusal, before the lockout, at the full limit; the measurement starts after it.
		const samples = last > index ? shares.slice(index + 1, last + 1) : [shares[index]];
		const paces = samples.map(([, pace]) => pace);
		parts.push(`measuring from ${samples[0][0]} (pace ${paces[0]}${paces.length > 1 ? ` to ${paces[paces.length - 1]}` : ''})`);
		index = last;
	}
	return parts.join(', ');
}

/** Each learning run's processes: when each finished, and the share it settled at (from the bench workers' trace). */
function traceLines(results: Results): string {
	const rows: Array<{ name: string; figures: MultiProcessFigures }> = [
		...(results.multiProcess ?? []).map((row) => ({ name: `${row.processes} processes`, figures: row })),
		...(results.otherApp ?? []).flatMap((row) => {
			const when = `beside ${otherAppCase(row).words}`;
			return [
				{ name: `${when}, fair turns`, figures: row.withLearning },
				{ name: `${when}, first-come turns`, figures: row.firstComeTurns },
			];
		}),
	];
	const lines = rows
		.filter(({ figures }) => figures.perProcess && figures.perProcess.length > 0)
		.map(({ name, figures }) => {
			const processes = figures.perProcess!.map((trace) => `done after ${trace.doneAfterWindows} windows, share ${describeShares(trace.shares)}`);
			return `  - ${name}: ${processes.join('; ')}`;
		});
	return lines.length ? `- Each process with the learning (windows from the start signal; its share in requests per window @ the window it changed, and when it measured, at what pace; \`results.json\` \`perProcess\`):\n${lines.join('\n')}` : '';
}

function multiProcessMarkdown(results: Results): string {
	if (!results.multiProcess) return '';
	const run = results.multiProcessRun;
	const items = run?.itemsPerProcess ?? results.settings.multiProcessItems;
	const when = run
		? ` Measured separately (\`BENCH_MULTI_ONLY=1 BENCH_MP_ITEMS=${run.itemsPerProcess} npm run bench\`, ${run.date}, ${run.durationSeconds} s, load average ${run.loadAverage1mAtStart} at the start, clock at ${run.timeScale}x).`
		: '';
	return `
## 4. Several n8n processes on one account (${items} subscribers each, Output "Request Summary", default credential settings)

Each process is the n8n harness in its own OS process (as a queue-mode worker: its own rate limiter), all started together against one sandbox account. Baseline: the same with the share learning switched off (every process paces at the credential's full 120).${when}

${markdownTable(MULTI_HEADER, multiRows(results))}

${markdownTable(OTHER_APP_HEADER, otherAppRows(results))}

- Lockouts: periods the sandbox locked the account out (a "Rate Limit Error" after the previous lockout had ended); every lockout stops every app on the account for a minute. 403s: every refused request, the other app's included in the second table.
- Beside the other app, in one run: fair turns (the default), first-come turns (the queue before fair turns: the limiter's \`turns: 'first-come'\`) and no learning, with the app started together with the bulk or running 1.5 windows before it (its requests then fill the window the bulk starts in, as an app that runs all day does). First refused: when AWeber first refused our process, in windows from the start. A lone bulk's fair turns are spread over the window, so AWeber refuses later and the share is learned later: a delay once per run, after which both settle at the same share within one request (docs/rate-limits.md#turns-between-executions).
- Subscribers / min: all processes' added subscribers per minute of AWeber's real time, from the start signal to the last process's end. Ratio: with the learning / without.
- With the learning, the processes are refused once, measure their parts once that lockout ends (each paces evenly, following the work it has waiting, until the sandbox refuses again: the second lockout) and then keep under the limit together, finishing about together. The baseline's cycle of a burst of 120 and a minute's lockout can add about as many subscribers per minute, as AWeber (and the sandbox) starts a fresh window after a lockout; but each of its lockouts stops every other app on the account for that minute.
${traceLines(results)}${
		items < 500
			? `\n- This is a smoke run at ${items} subscribers per process (the scenario's size is 500). At this size n8n's preparation of the items and the processes' start, on a machine with other work (load average above), weigh as much as the pacing: the rates are far below what the pacing allows, and the targets on subscribers per minute are for the full run (\`BENCH_MULTI_ONLY=1 npm run bench\`).`
			: ''
	}
`;
}

const ratio = (a: number, b: number) => round(a / b, 2);

function ratios(
	ours: BulkSummary,
	fast: BulkSummary,
	baseline: Results['bulkAdd']['baseline'],
	batched: Results['bulkAdd']['baselineWithBatching'],
): Results['bulkAddRatios'] {
	const result: Results['bulkAddRatios'] = { fastVsDefault: ratio(fast.subscribersPerMinute, ours.subscribersPerMinute) };
	if (batched) {
		result.fastVsBestHttpRequest = ratio(fast.subscribersPerMinute, batched.subscribersPerMinute);
		result.defaultVsBestHttpRequest = ratio(ours.subscribersPerMinute, batched.subscribersPerMinute);
	}
	// Against a baseline that lost items the rate compares nothing: those subscribers were never added.
	if (!('unavailable' in baseline)) {
		const lostNote = `not comparable: the HTTP Request node with default settings lost ${baseline.lost} of ${baseline.items} items`;
		result.fastVsDefaultHttpRequest = baseline.lost > 0 ? lostNote : ratio(fast.subscribersPerMinute, baseline.subscribersPerMinute);
		result.defaultVsDefaultHttpRequest = baseline.lost > 0 ? lostNote : ratio(ours.subscribersPerMinute, baseline.subscribersPerMinute);
	}
	return result;
}

function targets(
	ours: BulkSummary,
	fast: BulkSummary,
	batched: Results['bulkAdd']['baselineWithBatching'],
	returnAll: ReturnAllSummary,
	calls: Record<string, OperationCalls>,
): Results['targets'] {
	const result: Results['targets'] = {
		bulkAddLost: { target: '0', value: String(ours.lost), met: ours.lost === 0 },
		bulkAddThroughput: { target: '>= 95 % of the limit', value: `${ours.throughputPctOfLimit} %`, met: ours.throughputPctOfLimit >= 95 },
		bulkAddSubscribersPerMinute: { target: '>= 57', value: String(ours.subscribersPerMinute), met: ours.subscribersPerMinute >= 57 },
		bulkAddFastLost: { target: '0', value: String(fast.lost), met: fast.lost === 0 },
		bulkAddFastSubscribersPerMinute: { target: '>= 114', value: String(fast.subscribersPerMinute), met: fast.subscribersPerMinute >= 114 },
		bulkAddFastAheadOfHttpRequest: batched
			? {
					target: `> best HTTP Request (${batched.subscribersPerMinute})`,
					value: String(fast.subscribersPerMinute),
					met: fast.subscribersPerMinute > batched.subscribersPerMinute,
				}
			: { target: '> best HTTP Request', value: 'HTTP Request node unavailable', met: null },
		returnAllCalls: {
			target: String(Math.ceil(returnAll.entries / 100)),
			value: String(returnAll.calls),
			met: returnAll.calls === Math.ceil(returnAll.entries / 100),
		},
		returnAllWall: { target: '<= 1.2x raw', value: `${returnAll.wallRatioVsRaw}x`, met: returnAll.wallRatioVsRaw <= 1.2 },
		returnAllPeakMemory: { target: '<= 1.5x raw JSON', value: `${returnAll.peakMemRatioVsRawJson}x`, met: returnAll.peakMemRatioVsRawJson <= 1.5 },
	};
	for (const [name, operation] of Object.entries(calls)) {
		result[`calls.${name}`] = {
			target: `<= ${operation.target}`,
			value: operation.calls === null ? 'not built' : String(operation.calls),
			met: operation.calls === null ? null : operation.calls <= operation.target && !operation.error,
		};
	}
	return result;
}

function seconds(ms: number): string {
	return `${round(ms / 1000, 1)} s`;
}

function bulkRows(results: Results): string[][] {
	const rows: string[][] = [];
	const row = (name: string, summary: BulkSummary) => [
		name,
		String(summary.items),
		String(summary.lost),
		String(summary.calls),
		String(summary.rateLimitRefusals),
		// A run that lost items never added them: its rate of the others says nothing about an import.
		summary.lost > 0 ? `n/a (${summary.lost} lost)` : String(summary.subscribersPerMinute),
		`${summary.throughputPctOfLimit} %`,
		`${summary.wallThroughputPctOfLimit} %`,
		seconds(summary.wallMs),
		`${summary.eventLoopDelayP99Ms} ms`,
	];
	rows.push(row('AWeber Subscriber: Create, Output "Subscriber From AWeber" (default)', results.bulkAdd));
	rows.push(row('AWeber Subscriber: Create, Output "Request Summary"', results.bulkAddFast));
	const { baseline, baselineWithBatching } = results.bulkAdd;
	if ('unavailable' in baseline) rows.push(['HTTP Request (baseline)', baseline.unavailable, '', '', '', '', '', '', '', '']);
	else rows.push(row('HTTP Request, default settings', baseline));
	if (baselineWithBatching) {
		const { batchSize, batchInterval } = baselineWithBatching.batching;
		rows.push(row(`HTTP Request, Batching ${batchSize} per ${batchInterval} ms (best of ${baselineWithBatching.trials.length})`, baselineWithBatching));
	}
	return rows;
}

const TRIALS_HEADER = ['HTTP Request Batching tried (1 run each)', 'lost', '403s', 'subscribers / min', 'wall'];

function trialRows(results: Results): string[][] {
	return (results.bulkAdd.baselineWithBatching?.trials ?? []).map((trial) => [
		`${trial.batching.batchSize} per ${trial.batching.batchInterval} ms`,
		String(trial.lost),
		String(trial.rateLimitRefusals),
		String(trial.subscribersPerMinute),
		seconds(trial.wallMs),
	]);
}

const RATIO_LABELS: Record<string, string> = {
	fastVsDefault: 'Request Summary / Subscriber From AWeber',
	fastVsBestHttpRequest: 'Request Summary / best HTTP Request Batching',
	defaultVsBestHttpRequest: 'Subscriber From AWeber / best HTTP Request Batching',
	fastVsDefaultHttpRequest: 'Request Summary / HTTP Request, default settings',
	defaultVsDefaultHttpRequest: 'Subscriber From AWeber / HTTP Request, default settings',
};

function ratioRows(results: Results): string[][] {
	return Object.entries(results.bulkAddRatios).map(([name, value]) => [RATIO_LABELS[name] ?? name, typeof value === 'number' ? `${value}x` : value]);
}

const BULK_HEADER = [
	'Bulk add',
	'items',
	'lost',
	'calls',
	'403s',
	'subscribers / min',
	'throughput (active)',
	'throughput (wall)',
	'wall',
	'event loop delay p99',
];

function textTable(header: string[], rows: string[][]): string {
	const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => (row[index] ?? '').length)));
	const line = (cells: string[]) => cells.map((cell, index) => (cell ?? '').padEnd(widths[index])).join('  ');
	return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

function markdownTable(header: string[], rows: string[][]): string {
	return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

function returnAllRows(results: Results): string[][] {
	const r = results.returnAll;
	const small = r.memory.smallYoungGeneration;
	const standard = r.memory.default;
	return [
		['entries', String(r.entries), ''],
		['calls', String(r.calls), `target exactly ${Math.ceil(r.entries / 100)}`],
		['wall time, ours / raw undici', `${seconds(r.oursWallMs)} / ${seconds(r.rawWallMs)} = ${r.wallRatioVsRaw}x`, 'target <= 1.2x'],
		['raw JSON received', bytes(r.rawJsonBytes), ''],
		['peak heap, ours (1 MiB young gen.)', `+${bytes(small.oursPeakHeapDelta)} = ${small.peakMemRatioVsRawJson}x raw JSON`, 'target <= 1.5x'],
		['peak heap, raw undici (1 MiB young gen.)', `+${bytes(small.rawPeakHeapDelta)} = ${small.rawFetchPeakMemRatioVsRawJson}x raw JSON`, 'for comparison'],
		['peak heap, ours (V8 defaults)', `+${bytes(standard.oursPeakHeapDelta)} = ${standard.peakMemRatioVsRawJson}x raw JSON`, 'garbage included'],
		['peak heap, raw undici (V8 defaults)', `+${bytes(standard.rawPeakHeapDelta)} = ${standard.rawFetchPeakMemRatioVsRawJson}x raw JSON`, 'for comparison'],
		['heap kept by the output, ours', `+${bytes(r.oursRetainedHeapDelta)} = ${r.retainedMemRatioVsRawJson}x raw JSON`, 'after a full collection'],
	];
}

function callRows(results: Results): string[][] {
	return Object.entries(results.callsPerOperation).map(([name, operation]) => [
		name,
		operation.calls === null ? 'not built' : String(operation.calls),
		`<= ${operation.target}`,
		(operation.sequence ?? []).join(', ') + (operation.error ? ` (error: ${operation.error})` : ''),
	]);
}

function targetRows(results: Results): string[][] {
	return Object.entries(results.targets).map(([name, target]) => [
		name,
		target.value,
		target.target,
		target.met === null ? 'n/a' : target.met ? 'met' : 'MISSED',
	]);
}

function table(results: Results): string {
	return [
		textTable(BULK_HEADER, bulkRows(results)),
		'',
		textTable(TRIALS_HEADER, trialRows(results)),
		'',
		textTable(['Subscribers per minute, ratio', 'value'], ratioRows(results)),
		'',
		textTable(['Return All', 'value', ''], returnAllRows(results)),
		'',
		textTable(['Calls per operation', 'calls', 'target', 'sequence'], callRows(results)),
		'',
		textTable(['Target', 'value', 'target', ''], targetRows(results)),
	].join('\n');
}

function markdown(results: Results): string {
	const m = results.machine;
	const s = results.settings;
	return `# Benchmark results

Command: \`${results.command}\` (${results.date}, ${results.durationSeconds} s). Figures are medians of the runs stated; \`bench/results.json\` has every run.

Machine: ${m.nproc} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}, ${m.platform}; load average (1 min) ${m.loadAverage1mAtStart} at the start and ${m.loadAverage1mAtEnd} at the end (other work on the machine slows the n8n side and makes timings noisier).

The sandbox runs in its own process (AWeber is a remote server) with its clock at ${s.timeScale}x: AWeber's 60 s window (and lockout) lasts ${s.windowRealMs} ms; limit ${s.limit} requests per window per account.

## 1. Bulk add (${s.items} items, ${s.runs} runs each unless stated)

${markdownTable(BULK_HEADER, bulkRows(results))}

${markdownTable(TRIALS_HEADER, trialRows(results))}

${markdownTable(['Subscribers per minute, ratio (same run)', 'value'], ratioRows(results))}

- Subscribers / min: subscribers added per minute of AWeber's real time (the wall time of the run, which includes n8n's preparation of the items, times the sandbox's time scale of ${s.timeScale}). A run of ${s.items} items starts with a full window (AWeber lets ${s.limit} requests through at once), which counts in its favour against the steady ${s.limit} calls per minute, and n8n's preparation of the items counts against it; over a long import the rate tends to ${s.limit} (one call per add) or ${s.limit / 2} (two), less the pacing's 1 % margin.
- Why one call per add and a tuned HTTP Request node come close: AWeber's window bounds every client alike, and both then send about ${s.limit} adds per window. What differs is overhead. n8n prepares every input item of a declarative node before its first request (ours: first request after ${seconds(results.bulkAddFast.firstCallAfterMs)}, against ${results.bulkAdd.baselineWithBatching ? seconds(results.bulkAdd.baselineWithBatching.firstCallAfterMs) : 'n/a'} for the HTTP Request node, which prepares batch by batch), a cost the ${s.timeScale}x clock weighs ${s.timeScale} times more than AWeber's real minute does; our pacing keeps a 1 % margin and waits out a lockout where a batch of the HTTP Request node would be refused and lost.
- Lost: input items with no subscriber on the list afterwards. Calls: every request AWeber received (ours with the default output: the add and the read of the new subscriber, per item; with "Request Summary": the add only). 403s: "Rate Limit Error" refusals (each locks the account out for a minute).
- HTTP Request Batching: settings that keep to AWeber's pace were each tried once (one request per ${s.windowRealMs / s.limit} ms slot; a window's ${s.limit} at once, then a window plus 5 %, or plus only the 1 % margin our own pacing keeps, the tightest a user could tune it); the fastest that lost nothing was run until it had ${s.runs} runs, and its medians are in the table above.
- Throughput: successful calls as a share of the most AWeber's sliding window lets through in the same time (limit x (1 + time / window)), from the first to the last answer ("active"), and over the whole run including n8n's preparation of the ${s.items} items ("wall").
- Event loop delay p99: how late the n8n process got to run. Tens of milliseconds or more mean it was short of CPU (the machine's other work). The scaled clock squeezes a minute of AWeber traffic into ${s.windowRealMs / 1000} s, so n8n's own work per request (about 5 to 10 ms here) weighs ${s.timeScale} times more than at AWeber's real speed: each minute's burst of ${s.limit} requests takes a noticeable part of the window to send, which the active throughput counts as lost.

## 2. Return All (${results.returnAll.entries} subscribers, ${results.returnAll.runs} timed runs, ${results.returnAll.memoryRuns} memory runs; sandbox clock at ${s.returnAllTimeScale}x)

${markdownTable(['Return All', 'value', ''], returnAllRows(results))}

- Wall time: the AWeber Subscriber node's Get Many with Return All in the n8n harness, against a loop of undici GETs following \`next_collection_link\` (parsing each page), alternating in the same process, each starting in a fresh rate-limit window.
- Both reads take half a second or less and vary by about a tenth of a second from run to run on a shared machine (see the load average above), so the wall ratio is noisy; \`perRun\` in results.json has each pair.
- The node runs with its defaults, so **Simplify** is on: each entry is copied into an object of the fields users map most as its page arrives, and the page's raw entries are let go at once (\`nodes/shared/simplify.ts\`). n8n's HTTP client holds each answer until its connection is free again; with three pages read ahead that is long enough for V8 to move the raw entries to its old generation, where, before they were let go, they stayed as garbage and doubled the peak (1.95x before, 1.09x with one page at a time). With Simplify off the output is the raw entries themselves: peak about 1.7x, kept about 1.2x raw JSON.
- Memory: each read runs in its own child process (\`node --expose-gc\`) after a warm-up; baseline = heap in use after a full collection just before the read; peak = the largest heap in use V8 reported before any collection during the read (\`--trace-gc\`, enabled only for the read), so garbage not yet collected counts; kept = heap in use after a full collection with the output still referenced. Raw JSON = bytes of the 100 response bodies.
- With V8's default young generation (16 MiB or more) that much garbage can wait for a collection, which dominates a 10 MB read for any client (see the raw undici row); the target is checked on the run with \`--max-semi-space-size=1\`, where the peak is close to the memory really in use.

## 3. Calls per operation (one item)

${markdownTable(['Operation', 'calls', 'target', 'sequence'], callRows(results))}

${multiProcessMarkdown(results)}${results.fairTurns ? `${fairTurnsMarkdown(results.fairTurns, markdownTable, fairTurnsRunNote(results))}\n` : ''}${listSyncMarkdown(results.listSync, markdownTable, listSyncRunNote(results))}${pollTriggerMarkdown(results.pollTrigger)}
## Targets

${markdownTable(['Target', 'value', 'target', ''], targetRows(results))}
`;
}

function listSyncRunNote(results: Results): string | undefined {
	const run = results.listSyncRun;
	return run ? `Measured separately (\`BENCH_SYNC_ONLY=1 npm run bench\`, ${run.date}, ${run.durationSeconds} s, load average ${run.loadAverage1mAtStart} at the start).` : undefined;
}

async function measureFairTurns(sandbox: RemoteSandbox, harness: N8nHarness): Promise<FairTurnsResults> {
	const signUpEverySeconds = setting('BENCH_FAIR_SIGNUP_EVERY', 5);
	log(`interactive under bulk: ${settings.items} items, a sign-up every ${signUpEverySeconds} AWeber seconds, fair turns against first come`);
	return await benchFairTurns({ sandbox, harness, items: settings.items, windowMs, signUpEverySeconds });
}

function fairTurnsRunNote(results: Results): string | undefined {
	const run = results.fairTurnsRun;
	return run ? `Measured separately (\`BENCH_FAIR_ONLY=1 npm run bench\`, ${run.date}, ${run.durationSeconds} s, load average ${run.loadAverage1mAtStart} at the start).` : undefined;
}

/** `BENCH_FAIR_ONLY=1`: interactive under bulk alone, merged into bench/results.json. */
async function fairOnly(): Promise<void> {
	const startedAt = Date.now();
	const loadAtStart = round(loadavg()[0], 2);
	const benchDir = path.resolve(__dirname);
	const results = JSON.parse(readFileSync(path.join(benchDir, 'results.json'), 'utf8')) as Results;
	const sandbox = await RemoteSandbox.start({ timeScale: settings.timeScale });
	try {
		results.fairTurns = await measureFairTurns(sandbox, new N8nHarness());
	} finally {
		await sandbox.stop();
	}
	results.fairTurnsRun = { date: new Date().toISOString(), durationSeconds: Math.round((Date.now() - startedAt) / 1000), loadAverage1mAtStart: loadAtStart };
	for (const name of Object.keys(results.targets)) if (name.startsWith('fairTurns.')) delete results.targets[name];
	Object.assign(results.targets, fairTurnsTargets(results.fairTurns));
	writeFileSync(path.join(benchDir, 'results.json'), `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(path.join(benchDir, 'RESULTS.md'), markdown(results));
	process.stdout.write(`${textTable(['Target', 'value', 'target', ''], targetRows(results).filter((row) => row[0].startsWith('fairTurns.')))}\n`);
	log(`merged the interactive-under-bulk figures into bench/results.json and bench/RESULTS.md in ${results.fairTurnsRun.durationSeconds} s`);
}

/** `BENCH_REPORT_ONLY=1`: write bench/RESULTS.md again from bench/results.json, without measuring. */
async function reportOnly(): Promise<void> {
	const benchDir = path.resolve(__dirname);
	const results = JSON.parse(readFileSync(path.join(benchDir, 'results.json'), 'utf8')) as Results;
	writeFileSync(path.join(benchDir, 'RESULTS.md'), markdown(results));
	log('wrote bench/RESULTS.md from bench/results.json');
}

/** `BENCH_ENGAGE_ONLY=1`: the Polling Trigger's Broadcast Opened / Link Clicked calls alone (bench/engagementPoll.ts), merged in. */
async function engageOnly(): Promise<void> {
	const benchDir = path.resolve(__dirname);
	const results = JSON.parse(readFileSync(path.join(benchDir, 'results.json'), 'utf8')) as Results & { engagementPoll?: unknown };
	const { figures, targets } = await benchEngagementPoll();
	results.engagementPoll = { ...figures, date: new Date().toISOString(), command: 'BENCH_ENGAGE_ONLY=1 npm run bench' };
	Object.assign(results.targets, targets);
	writeFileSync(path.join(benchDir, 'results.json'), `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(path.join(benchDir, 'RESULTS.md'), markdown(results));
	process.stdout.write(`${textTable(['Target', 'value', 'target', ''], targetRows(results))}\n`);
}

const only = {
	BENCH_REPORT_ONLY: reportOnly,
	BENCH_MULTI_ONLY: multiOnly,
	BENCH_SYNC_ONLY: syncOnly,
	BENCH_POLL_ONLY: pollOnly,
	BENCH_ENGAGE_ONLY: engageOnly,
	BENCH_FAIR_ONLY: fairOnly,
};
const chosen = Object.entries(only).find(([name]) => process.env[name] === '1')?.[1] ?? main;
chosen().catch(async (error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	await stopAllSandboxes();
	process.exit(1);
});
