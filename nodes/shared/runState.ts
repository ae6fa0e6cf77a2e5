import type { IDataObject, IExecuteSingleFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { RateLimitSlot } from './rateLimiter';

/*
 * The package's one store of per-run state, keyed (weakly) by the run's execute data, which all its items share
 * (routing.ts A5). Each field is described in docs/architecture.md#state-kept-in-the-process, which
 * test/contract/state-table.test.ts checks against this interface.
 */
export interface RunState {
	items: Map<number, ItemState>;
	written: Set<number>;
	writtenAfterFailure: Set<number>;
	stop: AbortController;
	signal?: AbortSignal;
	failedItem?: number;
	failureMessage?: string;
	failures: Map<number, { error: NodeApiError | NodeOperationError; ownDescription: string }>;
	refusedInputs: Map<number, unknown>;
	customFieldNames: Map<string, Promise<string[]>>;
	sentFields: Map<number, IDataObject>;
	sourceEmails: { byEmail: Map<string, number[]>; noticed: boolean };
	unsubscribeGuard?: Promise<void>;
}

interface ItemState {
	/**
	 * The slot its request holds while its response is handled; a follow-up request releases it first (holding it
	 * while waiting for a new one could deadlock a full window of such requests).
	 */
	heldSlot?: RateLimitSlot;
	/** It already sent something: its next requests continue started work and go first. */
	started: boolean;
	/** A write of it is being handled: a request meanwhile is its postReceive's follow-up, made once AWeber wrote. */
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
			sourceEmails: { byEmail: new Map(), noticed: false },
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
