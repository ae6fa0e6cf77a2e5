// Child process of the Return All benchmark: reads every subscriber of the sandbox's big list once, either
// through the AWeber Subscriber node ("ours", in the n8n harness) or with a plain undici page loop ("raw"),
// and reports memory. Started by bench/run.ts as
//   node --expose-gc --import tsx bench/memoryProbe.ts '<ProbeConfig JSON>'
// During the measured run only, V8's --trace-gc prints the heap in use before every collection: its maximum
// is the run's true peak, garbage included, which sampling from a timer would miss (timers do not fire while
// the pager is busy). The parent reads those lines from stdout.
import { setFlagsFromString } from 'node:v8';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { N8nHarness } from '../test/harness';

export interface ProbeConfig {
	mode: 'ours' | 'raw';
	apiBaseUrl: string;
	accessToken: string;
	credential: ICredentialDataDecryptedObject;
	accountId: number;
	listId: number;
}

export interface ProbeResult {
	mode: 'ours' | 'raw';
	entries: number;
	/** Bytes of the JSON pages as received (raw mode only). */
	rawJsonBytes?: number;
	/** Heap in use after a full collection just before the run. */
	baselineHeap: number;
	/** Heap in use after a full collection with the result still referenced. */
	retainedHeap: number;
	/** `process.memoryUsage().heapUsed` at the end, before collecting. */
	endHeap: number;
}

const MARK = 'PROBE-RESULT ';

function collect(): number {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('Run with --expose-gc');
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

async function rawFetchAll(config: ProbeConfig, pageSize = 100, maxPages = Infinity): Promise<{ entries: IDataObject[]; bytes: number }> {
	const entries: IDataObject[] = [];
	let bytes = 0;
	let link: string | undefined =
		`${config.apiBaseUrl}/1.0/accounts/${config.accountId}/lists/${config.listId}/subscribers?ws.size=${pageSize}`;
	for (let pages = 0; link && pages < maxPages; pages++) {
		const answer = await request(link, { headers: { authorization: `Bearer ${config.accessToken}`, accept: 'application/json' } });
		const text = await answer.body.text();
		if (answer.statusCode !== 200) throw new Error(`GET ${link} answered ${answer.statusCode}: ${text.slice(0, 200)}`);
		bytes += Buffer.byteLength(text);
		const page = JSON.parse(text) as { entries: IDataObject[]; next_collection_link?: string };
		entries.push(...page.entries);
		link = page.next_collection_link;
	}
	return { entries, bytes };
}

async function main(): Promise<void> {
	const config = JSON.parse(process.argv[2]) as ProbeConfig;
	let run: () => Promise<{ held: unknown; entries: number; rawJsonBytes?: number }>;
	if (config.mode === 'raw') {
		// Warm-up on a short read, so module loading and JIT are not counted.
		await rawFetchAll(config, 5, 1);
		run = async () => {
			const { entries, bytes } = await rawFetchAll(config);
			return { held: entries, entries: entries.length, rawJsonBytes: bytes };
		};
	} else {
		const harness = new N8nHarness();
		const credentialId = harness.addCredential(config.credential);
		const parameters = (returnAll: boolean): IDataObject => ({
			operation: 'getAll',
			accountId: { __rl: true, mode: 'id', value: String(config.accountId) },
			listId: { __rl: true, mode: 'id', value: String(config.listId) },
			returnAll,
			...(returnAll ? {} : { limit: 5 }),
		});
		await harness.runNode({ type: 'aWeberSubscriber', credentialId, parameters: parameters(false) });
		run = async () => {
			const result = await harness.runNode({ type: 'aWeberSubscriber', credentialId, parameters: parameters(true) });
			if (result.status !== 'success') throw new Error(`Return All failed: ${result.error?.message}`);
			return { held: result, entries: result.items.length };
		};
	}
	const baselineHeap = collect();
	setFlagsFromString('--trace-gc');
	const outcome = await run();
	const endHeap = process.memoryUsage().heapUsed;
	setFlagsFromString('--no-trace-gc');
	const retainedHeap = collect();
	const result: ProbeResult = {
		mode: config.mode,
		entries: outcome.entries,
		rawJsonBytes: outcome.rawJsonBytes,
		baselineHeap,
		retainedHeap,
		endHeap,
	};
	// Keep the result alive until after the measurement above.
	if (outcome.held === undefined) throw new Error('nothing read');
	process.stdout.write(`${MARK}${JSON.stringify(result)}\n`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
		process.exit(1);
	},
);
