// One "n8n process" of the multi-process benchmark (bench/multiProcess.ts): the test harness (n8n-core's real
// WorkflowExecute and RoutingNode) in its own OS process, with its own rate limiter, as a queue-mode worker has.
// Reads its settings from BENCH_WORKER (JSON), says "ready" once the nodes are loaded, starts its bulk add on "go",
// and prints one line of JSON with its result.
import path from 'node:path';
import { createInterface } from 'node:readline';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { N8nHarness } from '../test/harness';

export interface WorkerSettings {
	label: string;
	items: number;
	accountId: number;
	listId: number;
	credential: ICredentialDataDecryptedObject;
	learning: boolean;
	/** How the limiter hands out turns between executions (default fair; `first-come`: the queue before fair turns). */
	turns?: 'fair' | 'first-come';
}

export interface WorkerResult {
	label: string;
	items: number;
	/** Items the node output (added subscribers). */
	succeeded: number;
	/** Items that ended in an error (Continue On Fail is on, so each item reports its own). */
	failed: number;
	firstError?: string;
	wallMs: number;
	/**
	 * This process's share of the account over the run: [ms since the start, requests per window], at every change;
	 * while it measures its share after a lockout, its pace, marked 'measuring'.
	 */
	shares: ShareSample[];
	/** When this process's requests were refused with "Rate Limit Error", in ms since the start. */
	refusedAt: number[];
}

export type ShareSample = [number, number] | [number, number, 'measuring'];

/** What the worker uses of the built rate limiter (nodes/shared/rateLimiter.ts). */
interface LimiterProbe {
	learning: { share(): number; measuring(): { pace: number } | undefined };
	lockOut(): unknown;
}

interface RateLimiterModule {
	rateLimiterFor(key: string, settings: { requests: number; windowMs: number }, options: { learnShare: boolean; turns?: WorkerSettings['turns'] }): LimiterProbe;
}

async function main(): Promise<void> {
	const settings = JSON.parse(process.env.BENCH_WORKER ?? '{}') as WorkerSettings;
	const harness = new N8nHarness();
	// The built package, as the harness loads it: the same module instance the nodes use.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const rateLimiter = require(path.resolve(__dirname, '..', 'dist', 'nodes', 'shared', 'rateLimiter.js')) as RateLimiterModule;
	const credentialId = harness.addCredential(settings.credential);
	// The credential's limiter, made before the run with the learning on or off (the baseline) and its turns; the nodes
	// then use it, and it takes the credential's settings from their first request.
	const limiter = rateLimiter.rateLimiterFor(credentialId, { requests: 120, windowMs: 60_000 }, { learnShare: settings.learning, turns: settings.turns });
	const trace = traceLimiter(limiter);
	const input: IDataObject[] = Array.from({ length: settings.items }, (_, index) => ({ email: `mp-${settings.label}-${index}@example.com` }));
	process.stdout.write('ready\n');
	const lines = createInterface({ input: process.stdin });
	await new Promise<void>((resolve) => lines.once('line', () => resolve()));
	const startedAt = Date.now();
	trace.start(startedAt);
	const result = await harness.runNode(
		{
			type: 'aWeberSubscriber',
			credentialId,
			continueOnFail: true,
			parameters: {
				operation: 'create',
				accountId: { __rl: true, mode: 'id', value: String(settings.accountId) },
				listId: { __rl: true, mode: 'id', value: String(settings.listId) },
				email: '={{ $json.email }}',
				output: 'summary',
			},
		},
		input,
	);
	const wallMs = Date.now() - startedAt;
	const failedItems = result.items.filter((item) => item.error !== undefined);
	const report: WorkerResult = {
		label: settings.label,
		items: settings.items,
		succeeded: result.items.length - failedItems.length,
		failed: failedItems.length + (result.status === 'success' ? 0 : settings.items - result.items.length),
		firstError: failedItems[0] ? String(failedItems[0].error) : result.error?.message,
		wallMs,
		...trace.stop(),
	};
	process.stdout.write(`result ${JSON.stringify(report)}\n`);
	lines.close();
}

function traceLimiter(limiter: LimiterProbe) {
	const lockOut = limiter.lockOut.bind(limiter);
	let startedAt = 0;
	let timer: NodeJS.Timeout | undefined;
	const shares: ShareSample[] = [];
	const refusedAt: number[] = [];
	const sample = () => {
		const pace = limiter.learning.measuring()?.pace;
		const sample: ShareSample = pace === undefined ? [Date.now() - startedAt, limiter.learning.share()] : [Date.now() - startedAt, Math.round(pace), 'measuring'];
		const last = shares[shares.length - 1];
		if (!last || last[1] !== sample[1] || last[2] !== sample[2]) shares.push(sample);
	};
	limiter.lockOut = () => {
		refusedAt.push(Date.now() - startedAt);
		const lockout = lockOut();
		// The share may have changed with this refusal (transport.ts lowers it right after).
		setImmediate(sample);
		return lockout;
	};
	return {
		start(at: number) {
			startedAt = at;
			timer = setInterval(sample, 50);
		},
		stop(): Pick<WorkerResult, 'shares' | 'refusedAt'> {
			sample();
			clearInterval(timer);
			return { shares, refusedAt };
		},
	};
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
