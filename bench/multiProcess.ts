// Benchmark 4: several n8n processes (queue-mode workers) sharing one AWeber account, with the share learning
// (nodes/shared/rateLimiter.ts) and without it (the baseline), and one process beside an "other app" (started with
// the bulk, or already running), with fair turns (the default), first-come turns and without the learning.
// Each process is the test harness in a child process (bench/multiProcessWorker.ts), started together; the sandbox
// runs in its own process on the scaled clock.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import { request } from 'undici';

import { log, round } from './lib';
import type { RemoteSandbox } from './remoteSandbox';
import type { ShareSample, WorkerResult, WorkerSettings } from './multiProcessWorker';

export interface MultiProcessFigures {
	/** Input items with no subscriber on the list afterwards. */
	lost: number;
	/** Requests AWeber refused with "Rate Limit Error". */
	rateLimitRefusals: number;
	/** Periods the sandbox locked the account out (a refusal after the previous lockout had ended). */
	accountLockouts: number;
	/** Subscribers added by all processes together per minute of AWeber's real time. */
	subscribersPerMinute: number;
	wallMs: number;
	/** Each process: when it finished and its share over the run (in AWeber windows from the start signal). */
	perProcess?: ProcessTrace[];
}

export interface ProcessTrace {
	doneAfterWindows: number;
	/** When AWeber first refused this process, in windows from the start signal (none: never refused). */
	firstRefusalAtWindows?: number;
	/** [windows since the start, requests per window], at every change; marked 'measuring' while measuring (its pace). */
	shares: ShareSample[];
}

export interface MultiProcessRow extends MultiProcessFigures {
	processes: number;
	itemsPerProcess: number;
	baseline: MultiProcessFigures;
}

export interface OtherAppRow {
	itemsPerProcess: number;
	otherAppRequestsPerMinute: number;
	/** How long the other app ran before our bulk started, in windows (0: they start together). */
	appStartedWindowsBefore: number;
	/**
	 * Our node's figures, with the learning (fair turns, the default), with the learning and first-come turns (before
	 * fair turns), and without the learning (baseline); refusals and lockouts count the other app's too.
	 */
	withLearning: MultiProcessFigures & { otherAppRequests: number };
	firstComeTurns: MultiProcessFigures & { otherAppRequests: number };
	baseline: MultiProcessFigures & { otherAppRequests: number };
}

export interface ScenarioOptions {
	/** The limiter's turns between executions (default fair). */
	turns?: WorkerSettings['turns'];
	/** `beside` starts this many windows before the processes do (an app already running). */
	besideAheadWindows?: number;
}

export interface MultiProcessContext {
	sandbox: RemoteSandbox;
	itemsPerProcess: number;
	/** AWeber's window in real ms on the scaled clock. */
	windowMs: number;
}

function startWorker(settings: WorkerSettings): { child: ChildProcess; ready: Promise<void>; result: Promise<WorkerResult> } {
	const projectRoot = path.resolve(__dirname, '..');
	const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'multiProcessWorker.ts')], {
		cwd: projectRoot,
		env: { ...process.env, BENCH_WORKER: JSON.stringify(settings) },
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	let output = '';
	let errors = '';
	child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
	let markReady: () => void = () => undefined;
	const ready = new Promise<void>((resolve) => (markReady = resolve));
	const result = new Promise<WorkerResult>((resolve, reject) => {
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			if (output.includes('ready\n')) markReady();
			const match = /^result (.*)$/m.exec(output);
			if (match) resolve(JSON.parse(match[1]) as WorkerResult);
		});
		child.on('exit', (code) => reject(new Error(`worker ${settings.label} exited (${code}): ${errors}`)));
	});
	return { child, ready, result };
}

/** Lockouts seen in the request log: a refusal when no lockout was running starts one that lasts a window. */
function countLockouts(refusalTimes: number[], windowMs: number): number {
	let lockouts = 0;
	let lockedUntil = -Infinity;
	for (const time of [...refusalTimes].sort((a, b) => a - b)) {
		if (time < lockedUntil) continue;
		lockouts++;
		lockedUntil = time + windowMs;
	}
	return lockouts;
}

/** Runs `processes` workers together against a fresh sandbox; `beside` runs alongside until they finish. */
export async function runScenario(
	context: MultiProcessContext,
	processes: number,
	learning: boolean,
	beside?: (until: Promise<unknown>) => Promise<number>,
	options: ScenarioOptions = {},
): Promise<MultiProcessFigures & { otherAppRequests: number }> {
	const { sandbox } = context;
	await sandbox.reset();
	const credential = await sandbox.credentialData();
	const ahead = options.besideAheadWindows ?? 0;
	// Short: it is part of every subscriber's email address, which AWeber limits to 50 characters.
	const label = `${processes}p-${learning ? 'learning' : 'baseline'}${options.turns === 'first-come' ? '-fc' : ''}${ahead > 0 ? '-app' : ''}`;
	const workers = Array.from({ length: processes }, (_, index) =>
		startWorker({
			label: `${label}-${index}`,
			items: context.itemsPerProcess,
			accountId: sandbox.seed.accountId,
			listId: sandbox.seed.lists.empty,
			credential,
			learning,
			turns: options.turns,
		}),
	);
	await Promise.all(workers.map(async (worker) => await worker.ready));
	let markFinished: () => void = () => undefined;
	const finished = new Promise<void>((resolve) => (markFinished = resolve));
	const otherApp = beside ? beside(finished) : Promise.resolve(0);
	await new Promise((resolve) => setTimeout(resolve, ahead * context.windowMs));
	const startedAt = Date.now();
	for (const worker of workers) worker.child.stdin?.write('go\n');
	const all = Promise.all(workers.map(async (worker) => await worker.result));
	void all.finally(markFinished);
	const results = await all;
	const wallMs = Date.now() - startedAt;
	const otherAppRequests = await otherApp;
	for (const worker of workers) worker.child.stdin?.end();

	const calls = await sandbox.apiCalls();
	const added = new Set(
		calls
			.filter((entry) => entry.method === 'POST' && entry.status === 201)
			.map((entry) => String((entry.body as { email?: string } | undefined)?.email ?? '').toLowerCase()),
	);
	const expected = results.flatMap((result) => Array.from({ length: result.items }, (_, index) => `mp-${result.label}-${index}@example.com`));
	const lost = expected.filter((email) => !added.has(email)).length;
	const refusals = calls.filter((entry) => entry.status === 403).map((entry) => Date.parse(entry.time));
	const figures = {
		lost,
		rateLimitRefusals: refusals.length,
		accountLockouts: countLockouts(refusals, context.windowMs),
		subscribersPerMinute: round((expected.length - lost) / (wallMs / context.windowMs)),
		wallMs,
		otherAppRequests,
		perProcess: results.map(
			(result): ProcessTrace => ({
				doneAfterWindows: round(result.wallMs / context.windowMs, 2),
				...(result.refusedAt.length > 0 ? { firstRefusalAtWindows: round(Math.min(...result.refusedAt) / context.windowMs, 2) } : {}),
				shares: result.shares.map(([at, ...rest]): ShareSample => [round(at / context.windowMs, 2), ...rest]),
			}),
		),
	};
	const failed = results.filter((result) => result.failed > 0);
	const { perProcess: _traced, ...summary } = figures;
	log(`${label}: ${JSON.stringify(summary)}${failed.length ? `; failed items, first: ${failed[0].firstError}` : ''}`);
	for (const result of results) log(`  ${describeProcess(result, context.windowMs)}`);
	return figures;
}

/** One process's run in AWeber windows: when it finished, its share over time, when it was refused. */
function describeProcess(result: WorkerResult, windowMs: number): string {
	const windows = (ms: number) => round(ms / windowMs, 2);
	const shares = result.shares.map(([at, share, measuring]) => `${measuring ? 'measuring at ' : ''}${share}@${windows(at)}`).join(' ');
	const refused = result.refusedAt.length ? `; refused at ${[...new Set(result.refusedAt.map(windows))].join(', ')}` : '';
	return `${result.label}: done after ${windows(result.wallMs)} windows; share (requests per window@window) ${shares}${refused}`;
}

/** A plain loop reading the account at `perMinute` requests per AWeber minute, as another app on the account would. */
export function otherApp(context: MultiProcessContext, perMinute: number) {
	return async (until: Promise<unknown>): Promise<number> => {
		const { sandbox } = context;
		const token = await sandbox.issueToken();
		let done = false;
		void until.finally(() => (done = true));
		let sent = 0;
		const everyMs = context.windowMs / perMinute;
		while (!done) {
			const answer = await request(`${sandbox.apiBaseUrl}/1.0/accounts/${sandbox.seed.accountId}`, {
				headers: { authorization: `Bearer ${token.access_token}` },
			});
			await answer.body.dump();
			sent++;
			await new Promise((resolve) => setTimeout(resolve, everyMs));
		}
		return sent;
	};
}

const withoutExtra = ({ otherAppRequests: _ignored, ...figures }: MultiProcessFigures & { otherAppRequests: number }): MultiProcessFigures => figures;

/** The baseline's processes all pace at the full limit: their share trail says nothing. */
const withoutTrace = ({ perProcess: _ignored, ...figures }: MultiProcessFigures): MultiProcessFigures => figures;

export async function benchMultiProcess(context: MultiProcessContext, processCounts: number[]): Promise<MultiProcessRow[]> {
	const rows: MultiProcessRow[] = [];
	for (const processes of processCounts) {
		const learned = withoutExtra(await runScenario(context, processes, true));
		const baseline = withoutTrace(withoutExtra(await runScenario(context, processes, false)));
		rows.push({ processes, itemsPerProcess: context.itemsPerProcess, ...learned, baseline });
	}
	return rows;
}

/**
 * One process beside an app at `perMinute`: the app started with the bulk (the scenario since issue 18), and the app
 * already running for 1.5 windows (the user's case: an app that runs all day), so its requests fill the window the bulk
 * starts in. Fair turns spread a lone bulk's first window (docs/rate-limits.md#turns-between-executions); first-come
 * turns, measured in the same run, show what that costs here.
 */
export async function benchOtherApp(context: MultiProcessContext, perMinute = 40): Promise<OtherAppRow[]> {
	const rows: OtherAppRow[] = [];
	for (const appStartedWindowsBefore of [0, 1.5]) {
		const ahead = { besideAheadWindows: appStartedWindowsBefore };
		const withLearning = await runScenario(context, 1, true, otherApp(context, perMinute), ahead);
		const firstComeTurns = await runScenario(context, 1, true, otherApp(context, perMinute), { ...ahead, turns: 'first-come' });
		const baseline = await runScenario(context, 1, false, otherApp(context, perMinute), ahead);
		rows.push({ itemsPerProcess: context.itemsPerProcess, otherAppRequestsPerMinute: perMinute, appStartedWindowsBefore, withLearning, firstComeTurns, baseline });
	}
	return rows;
}
