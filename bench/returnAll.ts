// Benchmark 2: Return All on a list of 10,000 subscribers, against a raw paginated fetch with undici.
import { spawn } from 'node:child_process';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import type { N8nHarness } from '../test/harness';
import { bytes, log, median, round } from './lib';
import type { ProbeConfig, ProbeResult } from './memoryProbe';
import type { RemoteSandbox } from './remoteSandbox';

export interface ReturnAllContext {
	/** A sandbox seeded with `entries` subscribers on its Bulk list. */
	sandbox: RemoteSandbox;
	harness: N8nHarness;
	entries: number;
	runs: number;
	memoryRuns: number;
	/** Real ms of AWeber's 60 s window on the sandbox clock; each read starts in a fresh window. */
	windowMs: number;
}

/**
 * Memory is measured twice: with V8's default young generation (16 MiB and more, so that much garbage can
 * wait for a collection and counts in the peak) and with a 1 MiB one (the peak is then close to the memory
 * really in use).
 */
const MEMORY_SETTINGS = ['default', 'smallYoungGeneration'] as const;
type MemorySetting = (typeof MEMORY_SETTINGS)[number];
type MeasuredProbe = ProbeResult & { peakHeap: number };

interface MemoryFigures {
	oursPeakHeapDelta: number;
	rawPeakHeapDelta: number;
	peakMemRatioVsRawJson: number;
	rawFetchPeakMemRatioVsRawJson: number;
}

export interface ReturnAllSummary {
	entries: number;
	calls: number;
	oursWallMs: number;
	rawWallMs: number;
	wallRatioVsRaw: number;
	rawJsonBytes: number;
	/** Peak heap over baseline / raw JSON bytes, 1 MiB young generation (close to memory in use). */
	peakMemRatioVsRawJson: number;
	/** The same with V8's default young generation (garbage awaiting collection included). */
	peakMemRatioVsRawJsonDefaultGc: number;
	/** Heap kept after a full collection with the output still referenced / raw JSON bytes. */
	retainedMemRatioVsRawJson: number;
	oursRetainedHeapDelta: number;
	rawRetainedHeapDelta: number;
	memory: Record<MemorySetting, MemoryFigures>;
	runs: number;
	memoryRuns: number;
	perRun: Array<{ oursWallMs: number; rawWallMs: number; calls: number }>;
}

function bulkListParameters(sandbox: RemoteSandbox): IDataObject {
	return {
		operation: 'getAll',
		accountId: { __rl: true, mode: 'id', value: String(sandbox.seed.accountId) },
		listId: { __rl: true, mode: 'id', value: String(sandbox.seed.lists.bulk) },
		returnAll: true,
	};
}

/** What a hand-written client does: GET 100 at a time, parse, follow next_collection_link. */
async function rawFetch(sandbox: RemoteSandbox, accessToken: string): Promise<number> {
	let link: string | undefined =
		`${sandbox.apiBaseUrl}/1.0/accounts/${sandbox.seed.accountId}/lists/${sandbox.seed.lists.bulk}/subscribers?ws.size=100`;
	let entries = 0;
	while (link) {
		const answer = await request(link, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
		const page = (await answer.body.json()) as { entries: IDataObject[]; next_collection_link?: string };
		if (answer.statusCode !== 200) throw new Error(`raw fetch: ${answer.statusCode} ${JSON.stringify(page).slice(0, 200)}`);
		entries += page.entries.length;
		link = page.next_collection_link;
	}
	return entries;
}

async function waitForFreshWindow(context: ReturnAllContext): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, context.windowMs * 1.1));
}

export async function benchReturnAll(context: ReturnAllContext): Promise<ReturnAllSummary> {
	const { sandbox, harness } = context;
	// A fresh token for each raw read: on a fast sandbox clock tokens expire within seconds of real time.
	const freshToken = async () => (await sandbox.issueToken()).access_token;
	// Warm-up of both paths (module loading, JIT), not measured.
	const warmCredential = harness.addCredential(await sandbox.credentialData());
	await harness.runNode({
		type: 'aWeberSubscriber',
		credentialId: warmCredential,
		parameters: { ...bulkListParameters(sandbox), returnAll: false, limit: 5 },
	});
	await rawFetch(sandbox, await freshToken());

	const perRun: ReturnAllSummary['perRun'] = [];
	for (let run = 0; run < context.runs; run++) {
		await waitForFreshWindow(context);
		await sandbox.clearRequests();
		const credentialId = harness.addCredential(await sandbox.credentialData());
		let startedAt = Date.now();
		const result = await harness.runNode({ type: 'aWeberSubscriber', credentialId, parameters: bulkListParameters(sandbox) });
		const oursWallMs = Date.now() - startedAt;
		if (result.status !== 'success' || result.items.length !== context.entries) {
			throw new Error(`Return All gave ${result.items.length} items (${result.error?.message ?? 'no error'})`);
		}
		const calls = (await sandbox.apiCalls()).length;
		await waitForFreshWindow(context);
		const accessToken = await freshToken();
		startedAt = Date.now();
		const rawEntries = await rawFetch(sandbox, accessToken);
		const rawWallMs = Date.now() - startedAt;
		if (rawEntries !== context.entries) throw new Error(`raw fetch read ${rawEntries} entries`);
		log(`return all run ${run + 1}/${context.runs}: ours ${oursWallMs} ms in ${calls} calls, raw ${rawWallMs} ms`);
		perRun.push({ oursWallMs, rawWallMs, calls });
	}

	const probes: Record<MemorySetting, Record<'ours' | 'raw', MeasuredProbe[]>> = {
		default: { ours: [], raw: [] },
		smallYoungGeneration: { ours: [], raw: [] },
	};
	for (let run = 0; run < context.memoryRuns; run++) {
		for (const setting of MEMORY_SETTINGS) {
			for (const mode of ['ours', 'raw'] as const) {
				await waitForFreshWindow(context);
				const config: ProbeConfig = {
					mode,
					apiBaseUrl: sandbox.apiBaseUrl,
					accessToken: await freshToken(),
					credential: await sandbox.credentialData(),
					accountId: sandbox.seed.accountId,
					listId: sandbox.seed.lists.bulk,
				};
				const probe = await runMemoryProbe(config, setting === 'smallYoungGeneration' ? ['--max-semi-space-size=1'] : []);
				log(
					`memory (${setting}) ${mode} run ${run + 1}/${context.memoryRuns}: peak +${bytes(probe.peakHeap - probe.baselineHeap)}, kept +${bytes(probe.retainedHeap - probe.baselineHeap)}`,
				);
				probes[setting][mode].push(probe);
			}
		}
	}
	const rawJsonBytes = median(probes.default.raw.map((probe) => probe.rawJsonBytes ?? NaN));
	const peak = (setting: MemorySetting, mode: 'ours' | 'raw') =>
		median(probes[setting][mode].map((probe) => probe.peakHeap - probe.baselineHeap));
	const retained = (mode: 'ours' | 'raw') => median(probes.default[mode].map((probe) => probe.retainedHeap - probe.baselineHeap));
	const figures = (setting: MemorySetting): MemoryFigures => ({
		oursPeakHeapDelta: peak(setting, 'ours'),
		rawPeakHeapDelta: peak(setting, 'raw'),
		peakMemRatioVsRawJson: round(peak(setting, 'ours') / rawJsonBytes, 2),
		rawFetchPeakMemRatioVsRawJson: round(peak(setting, 'raw') / rawJsonBytes, 2),
	});
	const memory = { default: figures('default'), smallYoungGeneration: figures('smallYoungGeneration') };
	const oursWallMs = median(perRun.map((run) => run.oursWallMs));
	const rawWallMs = median(perRun.map((run) => run.rawWallMs));
	return {
		entries: context.entries,
		calls: median(perRun.map((run) => run.calls)),
		oursWallMs,
		rawWallMs,
		wallRatioVsRaw: round(oursWallMs / rawWallMs, 2),
		rawJsonBytes,
		peakMemRatioVsRawJson: memory.smallYoungGeneration.peakMemRatioVsRawJson,
		peakMemRatioVsRawJsonDefaultGc: memory.default.peakMemRatioVsRawJson,
		retainedMemRatioVsRawJson: round(retained('ours') / rawJsonBytes, 2),
		oursRetainedHeapDelta: retained('ours'),
		rawRetainedHeapDelta: retained('raw'),
		memory,
		runs: context.runs,
		memoryRuns: context.memoryRuns,
		perRun,
	};
}

/** V8's --trace-gc line: "... Scavenge 45.2 (48.1) -> 40.3 (49.1) MB, ..." (heap in use before -> after). */
const GC_LINE = /(?:Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Sweep|Minor Mark-Compact)[^\d]*?([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;

async function runMemoryProbe(config: ProbeConfig, v8Flags: string[]): Promise<MeasuredProbe> {
	const projectRoot = path.resolve(__dirname, '..');
	const args = ['--expose-gc', ...v8Flags, '--import', 'tsx', path.join('bench', 'memoryProbe.ts'), JSON.stringify(config)];
	const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	const resultLine = stdout.split('\n').find((line) => line.startsWith('PROBE-RESULT '));
	if (code !== 0 || !resultLine) throw new Error(`memory probe (${config.mode}) failed with ${code}: ${stderr.slice(-2000)}`);
	const result = JSON.parse(resultLine.slice('PROBE-RESULT '.length)) as ProbeResult;
	const beforeCollections = stdout
		.split('\n')
		.map((line) => GC_LINE.exec(line))
		.filter((match): match is RegExpExecArray => match !== null)
		.map((match) => Number(match[1]) * 2 ** 20);
	return { ...result, peakHeap: Math.max(result.endHeap, ...beforeCollections) };
}
