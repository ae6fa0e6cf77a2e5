import type { IDataObject, IExecuteSingleFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { RateLimitSlot } from './rateLimiter';

/*
 * The package's one store of per-run state (docs/architecture.md#state-kept-in-the-process). A node run's items
 * share one object, the run's execute data (routing.ts A5); everything the request path and the operations keep
 * about a run hangs off it here, weakly held, so it goes with the run. No other module keeps state keyed by n8n's
 * objects: test/contract/state-table.test.ts checks the table in docs/architecture.md against the code.
 */

/**
 * What one node run's items share while they send:
 * - per item (by index): the rate-limit slot its request holds while its response is handled, and whether
 *   it already sent something (its next requests continue started work and go first). A follow-up request
 *   the item makes while handling a response (following Location, reading a self_link) releases the held
 *   slot first: the HTTP exchange is over, and holding it while waiting for a new one could deadlock a
 *   full window of such requests;
 * - the items that wrote to AWeber, and the item that failed for good with Continue On Fail off (the first in
 *   n8n's order, the one whose error n8n shows): runFailure.ts;
 * - what the operations keep per run: input refused before any request (badInput.ts), the custom field names
 *   read once per list (customFields.ts), each item's request body (the Subscriber node's requests.ts).
 */
export interface RunState {
	items: Map<number, ItemState>;
	written: Set<number>;
	/** Items written once the run had failed: on their way already, or before the failing item in n8n's order. */
	writtenAfterFailure: Set<number>;
	stop: AbortController;
	/** The execution's cancel signal combined with `stop`. */
	signal?: AbortSignal;
	failedItem?: number;
	failureMessage?: string;
	/** Every item that failed for good: its error, kept saying what was written (n8n shows the first), and its own description. */
	failures: Map<number, { error: NodeApiError | NodeOperationError; ownDescription: string }>;
	/** Input a preSend refused, by item, until the item's routed entry outputs it (error output only, routing.ts A10). */
	refusedInputs: Map<number, unknown>;
	/** One read of a list's custom field names (by list path) for every item of the run. */
	customFieldNames: Map<string, Promise<string[]>>;
	/** Each item's request body (add, purchase), for Output "Request Summary". */
	sentFields: Map<number, IDataObject>;
}

interface ItemState {
	heldSlot?: RateLimitSlot;
	started: boolean;
	/**
	 * A write of the item is being handled: a request the item makes meanwhile is its postReceive's follow-up,
	 * made only once AWeber carried the write out (the follow-up may then be dropped, the write stands).
	 */
	writing?: boolean;
}

const runs = new WeakMap<object, RunState>();

type MaybeRunContext = Partial<Pick<IExecuteSingleFunctions, 'getExecuteData' | 'getItemIndex'>>;

/** The run's state, for a context of a node run (execute); undefined for load options, hooks, polls, webhooks. */
export function runStateOf(context: object): RunState | undefined {
	const { getExecuteData } = context as MaybeRunContext;
	if (typeof getExecuteData !== 'function') return undefined;
	const runKey = getExecuteData.call(context) as unknown;
	if (typeof runKey !== 'object' || runKey === null) return undefined;
	let run = runs.get(runKey);
	if (!run) {
		run = {
			items: new Map(),
			written: new Set(),
			writtenAfterFailure: new Set(),
			stop: new AbortController(),
			failures: new Map(),
			refusedInputs: new Map(),
			customFieldNames: new Map(),
			sentFields: new Map(),
		};
		runs.set(runKey, run);
	}
	return run;
}

/** The sending item of a node run: its run's state, its index in n8n's order, and its own state. */
export interface RunItem {
	run: RunState;
	index: number;
	item: ItemState;
}

export function runItemOf(context: object): RunItem | undefined {
	const { getItemIndex } = context as MaybeRunContext;
	if (typeof getItemIndex !== 'function') return undefined;
	const index = getItemIndex.call(context);
	if (typeof index !== 'number') return undefined;
	const run = runStateOf(context);
	if (!run) return undefined;
	let item = run.items.get(index);
	if (!item) {
		item = { started: false };
		run.items.set(index, item);
	}
	return { run, index, item };
}
