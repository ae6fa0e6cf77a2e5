// Benchmark 1: 1,000 input items to "add subscriber" in one workflow run, ours (both outputs) against n8n's HTTP
// Request node (default settings, and the best of a few Batching settings).
import { monitorEventLoopDelay } from 'node:perf_hooks';

import type { IDataObject, INode, INodeType, IVersionedNodeType } from 'n8n-workflow';

import type { N8nHarness } from '../test/harness';
import { log, median, round } from './lib';
import type { RemoteSandbox } from './remoteSandbox';

export interface BulkRun {
	items: number;
	/** Input items with no subscriber on the list afterwards. */
	lost: number;
	/** Every request AWeber received, refused ones included. */
	calls: number;
	rateLimitRefusals: number;
	/** Wall time of the workflow run, n8n's preparation of the items included (real ms). */
	wallMs: number;
	/** From the first to the last AWeber answer (real ms). */
	activeMs: number;
	/** From the start of the run to AWeber's first request (real ms): n8n's preparation of the items. */
	firstCallAfterMs: number;
	/** Successful calls as a share of the most AWeber's sliding window allows in the active time. */
	throughputPctOfLimit: number;
	/** The same over the whole wall time. */
	wallThroughputPctOfLimit: number;
	/**
	 * Subscribers added per minute of AWeber's real time: added items over the wall time, which the sandbox's
	 * clock shrinks by its time scale (one AWeber minute lasts `windowMs`).
	 */
	subscribersPerMinute: number;
	/**
	 * How late the n8n process's event loop ran (p99, ms): high values mean the process did not get the CPU
	 * it needed (other work on the machine, or n8n's own preparation of the items), not that it was pacing.
	 */
	eventLoopDelayP99Ms: number;
}

export interface BulkSummary extends BulkRun {
	runs: number;
	perRun: BulkRun[];
}

export interface BulkAddContext {
	sandbox: RemoteSandbox;
	harness: N8nHarness;
	items: number;
	runs: number;
	/** AWeber's limit, and its window in real ms on the scaled sandbox clock. */
	limit: number;
	windowMs: number;
}

const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';

/**
 * n8n's HTTP Request node from n8n-nodes-base (the version n8n 2.38.7 ships), at its default version.
 * Returns undefined, with the reason, when the package cannot be loaded.
 */
export function loadHttpRequestNode(harness: N8nHarness): { version: number; packageVersion: string } | { error: string } {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { HttpRequest } = require('n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js') as {
			HttpRequest: new () => IVersionedNodeType;
		};
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const packageVersion = (require('n8n-nodes-base/package.json') as { version: string }).version;
		const versioned = new HttpRequest();
		const version = Number(versioned.description.defaultVersion);
		harness.nodeTypes.register(HTTP_REQUEST_TYPE, versioned.nodeVersions[version] as INodeType);
		return { version, packageVersion };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}

/** Runs `work` while watching the event loop's delay. */
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; startedAt: number; wallMs: number; eventLoopDelayP99Ms: number }> {
	const delay = monitorEventLoopDelay({ resolution: 10 });
	delay.enable();
	const startedAt = Date.now();
	const result = await work();
	const wallMs = Date.now() - startedAt;
	delay.disable();
	return { result, startedAt, wallMs, eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6) };
}

async function measure(
	context: BulkAddContext,
	input: IDataObject[],
	{ startedAt, wallMs, eventLoopDelayP99Ms }: { startedAt: number; wallMs: number; eventLoopDelayP99Ms: number },
): Promise<BulkRun> {
	const calls = await context.sandbox.apiCalls();
	const added = new Set(
		calls
			.filter((entry) => entry.method === 'POST' && entry.status === 201)
			.map((entry) => String((entry.body as IDataObject | undefined)?.email ?? '').toLowerCase()),
	);
	const lost = input.filter((item) => !added.has(String(item.email).toLowerCase())).length;
	const aweberMinutes = wallMs / context.windowMs;
	const successful = calls.filter((entry) => entry.status >= 200 && entry.status < 300).length;
	const times = calls.map((entry) => Date.parse(entry.time));
	const activeMs = times.length > 1 ? Math.max(...times) - Math.min(...times) : 0;
	// A sliding window lets `limit` calls through in any window: at most limit x (1 + T / window) in a span T.
	const allowed = (spanMs: number) => context.limit * (1 + spanMs / context.windowMs);
	return {
		items: input.length,
		lost,
		calls: calls.length,
		rateLimitRefusals: calls.filter((entry) => entry.status === 403).length,
		wallMs,
		activeMs,
		firstCallAfterMs: times.length > 0 ? Math.min(...times) - startedAt : 0,
		throughputPctOfLimit: round((100 * successful) / allowed(activeMs)),
		wallThroughputPctOfLimit: round((100 * successful) / allowed(wallMs)),
		subscribersPerMinute: round((input.length - lost) / aweberMinutes),
		eventLoopDelayP99Ms,
	};
}

function summarize(runs: BulkRun[]): BulkSummary {
	const pick = (key: keyof BulkRun) => round(median(runs.map((run) => run[key])));
	return {
		items: runs[0].items,
		lost: pick('lost'),
		calls: pick('calls'),
		rateLimitRefusals: pick('rateLimitRefusals'),
		wallMs: pick('wallMs'),
		activeMs: pick('activeMs'),
		firstCallAfterMs: pick('firstCallAfterMs'),
		throughputPctOfLimit: pick('throughputPctOfLimit'),
		wallThroughputPctOfLimit: pick('wallThroughputPctOfLimit'),
		subscribersPerMinute: pick('subscribersPerMinute'),
		eventLoopDelayP99Ms: pick('eventLoopDelayP99Ms'),
		runs: runs.length,
		perRun: runs,
	};
}

/** A fresh credential (so a fresh pacing state) and a sandbox with empty rate-limit state and request log. */
async function freshStart(context: BulkAddContext): Promise<string> {
	await context.sandbox.reset();
	return context.harness.addCredential(await context.sandbox.credentialData());
}

function subscribersUrl(sandbox: RemoteSandbox): string {
	return `${sandbox.apiBaseUrl}/1.0/accounts/${sandbox.seed.accountId}/lists/${sandbox.seed.lists.empty}/subscribers`;
}

function inputFor(label: string, run: number, items: number): IDataObject[] {
	return Array.from({ length: items }, (_, index) => ({ email: `bench-${label}-${run}-${index}@example.com` }));
}

/** The Subscriber node's Create on the sandbox's empty list, one subscriber per input item's `email`. */
export function subscriberCreate(sandbox: RemoteSandbox, credentialId: string, output: 'subscriber' | 'summary') {
	return {
		type: 'aWeberSubscriber',
		credentialId,
		parameters: {
			operation: 'create',
			accountId: { __rl: true, mode: 'id', value: String(sandbox.seed.accountId) },
			listId: { __rl: true, mode: 'id', value: String(sandbox.seed.lists.empty) },
			email: '={{ $json.email }}',
			output,
		},
	};
}

/** Our Subscriber node's Create, with its default output (the subscriber read back) or the request summary (1 call). */
export async function benchOurBulkAdd(context: BulkAddContext, output: 'subscriber' | 'summary' = 'subscriber'): Promise<BulkSummary> {
	const label = output === 'summary' ? 'ours-fast' : 'ours';
	const runs: BulkRun[] = [];
	for (let run = 0; run < context.runs; run++) {
		const credentialId = await freshStart(context);
		const input = inputFor(label, run, context.items);
		const timing = await timed(
			async () =>
				await context.harness.runNode(subscriberCreate(context.sandbox, credentialId, output), input),
		);
		const result = timing.result;
		const measured = await measure(context, input, timing);
		if (result.status !== 'success') log(`${label} bulk add run ${run + 1} ended with an error: ${result.error?.message}`);
		log(`${label} run ${run + 1}/${context.runs}: ${JSON.stringify(measured)}`);
		runs.push(measured);
	}
	return summarize(runs);
}

export interface HttpRequestBaselineOptions {
	label: string;
	/** n8n's Batching option of the HTTP Request node (items per batch, ms between batches). */
	batching?: { batchSize: number; batchInterval: number };
	version: number;
}

export async function benchHttpRequestBulkAdd(context: BulkAddContext, options: HttpRequestBaselineOptions): Promise<BulkSummary & { error?: string }> {
	const runs: BulkRun[] = [];
	let lastError: string | undefined;
	for (let run = 0; run < context.runs; run++) {
		const credentialId = await freshStart(context);
		const input = inputFor(options.label, run, context.items);
		const node: INode = {
			id: 'http-request',
			name: 'HTTP Request',
			type: HTTP_REQUEST_TYPE,
			typeVersion: options.version,
			position: [0, 0],
			parameters: {
				method: 'POST',
				url: subscribersUrl(context.sandbox),
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'aWeberOAuth2Api',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: { parameters: [{ name: 'email', value: '={{ $json.email }}' }] },
				options: options.batching ? { batching: { batch: options.batching } } : {},
			},
			credentials: { aWeberOAuth2Api: { id: credentialId, name: `AWeber ${credentialId}` } },
		};
		const timing = await timed(async () => await context.harness.run({ nodes: [node], connections: {} }, { inputItems: input, startNode: node.name }));
		const result = timing.result;
		const measured = await measure(context, input, timing);
		lastError = result.status === 'success' ? undefined : result.error?.message;
		log(`${options.label} run ${run + 1}/${context.runs}: ${JSON.stringify(measured)}${lastError ? ` (run error: ${lastError})` : ''}`);
		runs.push(measured);
	}
	return { ...summarize(runs), ...(lastError ? { error: lastError } : {}) };
}

export interface BatchingTrial {
	batching: { batchSize: number; batchInterval: number };
	lost: number;
	rateLimitRefusals: number;
	wallMs: number;
	subscribersPerMinute: number;
}

export type BestBatchingSummary = BulkSummary & { error?: string; batching: BatchingTrial['batching']; trials: BatchingTrial[] };

/**
 * The best a user gets from the HTTP Request node's own Batching option. Settings that keep to AWeber's pace
 * (`limit` requests per window) are tried once each: one request per slot, and a whole window's budget at once
 * followed by a window plus 5 %, or plus only the 1 % our own pacing keeps (the tightest a user could tune it; a
 * request early by more than that is refused and locks the account out). The fastest one that lost nothing (or
 * the fastest, if all lost some) is run again until it has `context.runs` runs, and its medians are reported.
 */
export async function benchBestHttpRequestBatching(context: BulkAddContext, version: number): Promise<BestBatchingSummary> {
	const settings = [
		{ batchSize: 1, batchInterval: Math.ceil(context.windowMs / context.limit) },
		{ batchSize: context.limit, batchInterval: Math.ceil(context.windowMs * 1.05) },
		{ batchSize: context.limit, batchInterval: Math.ceil(context.windowMs * 1.01) },
	];
	const trials: Array<{ batching: BatchingTrial['batching']; summary: BulkSummary & { error?: string } }> = [];
	for (const [index, batching] of settings.entries()) {
		const summary = await benchHttpRequestBulkAdd({ ...context, runs: 1 }, { label: `http-batched-${index}`, version, batching });
		trials.push({ batching, summary });
	}
	const ranked = [...trials].sort(
		(a, b) => Number(a.summary.lost > 0) - Number(b.summary.lost > 0) || b.summary.subscribersPerMinute - a.summary.subscribersPerMinute,
	);
	const best = ranked[0];
	log(`best HTTP Request batching: ${JSON.stringify(best.batching)} (${best.summary.subscribersPerMinute} subscribers per minute, ${best.summary.lost} lost)`);
	let summary: BulkSummary & { error?: string } = best.summary;
	if (context.runs > 1) {
		const more = await benchHttpRequestBulkAdd({ ...context, runs: context.runs - 1 }, { label: 'http-batched-best', version, batching: best.batching });
		summary = { ...summarize([...best.summary.perRun, ...more.perRun]), ...(more.error ? { error: more.error } : {}) };
	}
	return {
		...summary,
		batching: best.batching,
		trials: trials.map(({ batching, summary: trial }) => ({
			batching,
			lost: trial.lost,
			rateLimitRefusals: trial.rateLimitRefusals,
			wallMs: trial.wallMs,
			subscribersPerMinute: trial.subscribersPerMinute,
		})),
	};
}
