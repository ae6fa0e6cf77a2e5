// Benchmark 1: 1,000 input items to "add subscriber" in one workflow run, ours against n8n's HTTP Request node.
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
	/** Successful calls as a share of the most AWeber's sliding window allows in the active time. */
	throughputPctOfLimit: number;
	/** The same over the whole wall time. */
	wallThroughputPctOfLimit: number;
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
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; wallMs: number; eventLoopDelayP99Ms: number }> {
	const delay = monitorEventLoopDelay({ resolution: 10 });
	delay.enable();
	const startedAt = Date.now();
	const result = await work();
	const wallMs = Date.now() - startedAt;
	delay.disable();
	return { result, wallMs, eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6) };
}

async function measure(
	context: BulkAddContext,
	input: IDataObject[],
	{ wallMs, eventLoopDelayP99Ms }: { wallMs: number; eventLoopDelayP99Ms: number },
): Promise<BulkRun> {
	const calls = await context.sandbox.apiCalls();
	const added = new Set(
		calls
			.filter((entry) => entry.method === 'POST' && entry.status === 201)
			.map((entry) => String((entry.body as IDataObject | undefined)?.email ?? '').toLowerCase()),
	);
	const lost = input.filter((item) => !added.has(String(item.email).toLowerCase())).length;
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
		throughputPctOfLimit: round((100 * successful) / allowed(activeMs)),
		wallThroughputPctOfLimit: round((100 * successful) / allowed(wallMs)),
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
		throughputPctOfLimit: pick('throughputPctOfLimit'),
		wallThroughputPctOfLimit: pick('wallThroughputPctOfLimit'),
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

export async function benchOurBulkAdd(context: BulkAddContext): Promise<BulkSummary> {
	const runs: BulkRun[] = [];
	for (let run = 0; run < context.runs; run++) {
		const credentialId = await freshStart(context);
		const input = inputFor('ours', run, context.items);
		const timing = await timed(
			async () =>
				await context.harness.runNode(
					{
						type: 'aWeberSubscriber',
						credentialId,
						parameters: {
							operation: 'create',
							accountId: { __rl: true, mode: 'id', value: String(context.sandbox.seed.accountId) },
							listId: { __rl: true, mode: 'id', value: String(context.sandbox.seed.lists.empty) },
							email: '={{ $json.email }}',
						},
					},
					input,
				),
		);
		const result = timing.result;
		const measured = await measure(context, input, timing);
		if (result.status !== 'success') log(`our bulk add run ${run + 1} ended with an error: ${result.error?.message}`);
		log(`ours run ${run + 1}/${context.runs}: ${JSON.stringify(measured)}`);
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
