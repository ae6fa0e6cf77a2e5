import type { DeclarativeRestApiSettings, IDataObject, IExecutePaginationFunctions, IExecuteSingleFunctions, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { AweberContext } from './aweberContext';
import { asNodeError } from './errors';
import { runItemOf, runStateOf, type RunState } from './runState';

/*
 * When an item fails (docs/architecture.md#when-an-item-fails): its input refused before any request, its output
 * to the error output, and, with Continue On Fail off, the run stopped for the items after it.
 */

/**
 * Every operation's preSend is declared through this: a refusal stops the run as AWeber's refusal does, or, under
 * On Error "Continue (using error output)", waits for the routed entry to output it (routing.ts A10;
 * docs/architecture.md#when-an-item-fails).
 */
export function refusingBadInput<T extends IHttpRequestOptions>(
	preSend: (this: IExecuteSingleFunctions, requestOptions: T) => Promise<T>,
): (this: IExecuteSingleFunctions, requestOptions: T) => Promise<T> {
	const checked = async function (this: IExecuteSingleFunctions, requestOptions: T): Promise<T> {
		const deferred = sendsErrorsToErrorOutput(this) ? runStateOf(this)?.refusedInputs : undefined;
		if (deferred?.has(this.getItemIndex())) return requestOptions;
		try {
			return await preSend.call(this, requestOptions);
		} catch (error) {
			const refusal = asNodeError(this.getNode(), error, this.getItemIndex(), undefined, false);
			if (deferred) {
				deferred.set(this.getItemIndex(), refusal);
				return requestOptions;
			}
			const owner = runItemOf(this);
			if (owner) stopRunOnFailure(this, owner.run, owner.index, refusal);
			throw refusal;
		}
	};
	return Object.defineProperty(checked, REFUSES_BAD_INPUT, { value: true });
}

/** Marks a preSend declared through `refusingBadInput`. */
export const REFUSES_BAD_INPUT = 'aweberRefusesBadInput';

/** On Error "Continue (using error output)": the routed entry outputs a failed item itself (routing.ts A10). */
export function sendsErrorsToErrorOutput(context: IExecuteSingleFunctions): boolean {
	return context.getNode().onError === 'continueErrorOutput' && context.continueOnFail();
}

/** The item's input refused by a preSend, if any, taken once from the run's state. */
export function takeDeferredFailure(context: IExecuteSingleFunctions): unknown {
	const refused = runStateOf(context)?.refusedInputs;
	const index = context.getItemIndex();
	const failure = refused?.get(index);
	refused?.delete(index);
	return failure;
}

// The run stopped for the items after a failure (Continue On Fail off).

/** An item before this one in n8n's order failed the run. */
export function isDropped(run: RunState, index: number): boolean {
	return index > (run.failedItem ?? Infinity);
}

/** An item's write was carried out by AWeber; the failures' errors are kept up to date with it. */
export function markWritten(run: RunState, index: number): void {
	run.written.add(index);
	if (run.failures.size === 0) return;
	run.writtenAfterFailure.add(index);
	describeWrittenItems(run);
}

/** An item failed for good: unless the node continues on fail, stop sending for the items after it (an item already dropped changes nothing). */
export function stopRunOnFailure(context: AweberContext, run: RunState, index: number, error: unknown): void {
	if (context.continueOnFail?.() === true || isDropped(run, index)) return;
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError) || run.failures.has(index)) return;
	run.failures.set(index, { error, ownDescription: error.description ?? '' });
	// Not after the failing item (dropped above) nor the failing item itself: it comes first in n8n's order now.
	run.failedItem = index;
	run.failureMessage = error.message;
	run.stop.abort();
	describeWrittenItems(run);
}

/** Every failure's description, with the account of what the run wrote (none for a run of a single item). */
function describeWrittenItems(run: RunState): void {
	if (run.items.size <= 1) return;
	for (const [index, { error, ownDescription }] of run.failures) {
		// The failing item counts too: an add carried out whose read-back failed is written.
		const written = [...run.written].sort((a, b) => a - b);
		// Items before the failing one are carried out as n8n's own nodes would; those after it only when on their way.
		const after = written.filter((item) => item > index && run.writtenAfterFailure.has(item));
		const account =
			written.length === 0
				? 'No item of this run was written to AWeber.'
				: `${written.length} item${written.length === 1 ? ' was' : 's were'} written to AWeber in this run: ${itemList(written)}` +
					(after.length > 0
						? ` (${itemList(after)} after this failure: ${after.length === 1 ? 'it was' : 'they were'} already on ${after.length === 1 ? 'its' : 'their'} way).`
						: '.');
		error.description =
			`${ownDescription ? `${ownDescription}\n` : ''}${account} Nothing was sent for the items after item ${run.failedItem}; item numbers are n8n's, from 0. ` +
			'Turn on the node\'s "On Error: Continue" setting to get every item\'s own result instead.';
	}
}

/** "item 3", "items 0, 1 and 4", "items 0-27 and 29": n8n's numbering, runs of three or more items as ranges. */
function itemList(indexes: number[]): string {
	const runs: number[][] = [];
	for (const item of indexes) {
		const last = runs[runs.length - 1];
		if (last !== undefined && item === last[last.length - 1] + 1) last.push(item);
		else runs.push([item]);
	}
	const parts = runs.flatMap((run) => (run.length >= 3 ? [`${run[0]}-${run[run.length - 1]}`] : run.map(String)));
	const joined = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
	return `${indexes.length === 1 ? 'item' : 'items'} ${joined}`;
}

/**
 * The error of a request that was dropped because an earlier item failed the run. n8n shows the earlier item's error
 * (RoutingNode fails the run with the first failing item in its order, routing.ts A7), so this one needs no advice.
 */
export function notSentError(context: AweberContext, run: RunState, itemIndex: number | undefined): NodeOperationError {
	// The run has more items than the failure knew of when it happened.
	describeWrittenItems(run);
	return new NodeOperationError(context.getNode(), `Not sent to AWeber: item ${run.failedItem} failed first (${run.failureMessage})`, { itemIndex });
}

/** The execution was cancelled, or an earlier item failed the run: made once per run, so one listener on the execution's signal. */
export function stopSignal(execution: AbortSignal | undefined, run: RunState | undefined): AbortSignal | undefined {
	if (!run) return execution;
	if (!execution) return run.stop.signal;
	run.signal ??= AbortSignal.any([execution, run.stop.signal]);
	return run.signal;
}

// What a routed item that fails becomes: an error-output item (routing.ts A10), or the refusal of a declarative step (A9).

/** An error thrown by the request path: its headline and description are what n8n shows. */
export type RoutedError = Error & { description?: string | null; httpCode?: string | null };

/** A declarative postReceive step would drop Return All's further pages: refused before anything is sent (docs/architecture.md#return-all-reads-every-page). */
export function declarativeShapingError(
	context: IExecuteSingleFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	itemIndex: number,
): NodeOperationError {
	const steps = requestData.postReceive
		.flatMap((postReceive) => postReceive.actions)
		.filter((action) => typeof action !== 'function')
		.map((action) => `"${(action as { type?: string }).type ?? 'unknown'}"`);
	return new NodeOperationError(
		context.getNode(),
		`This operation declares a declarative postReceive step (${steps.join(', ')}), which AWeber nodes do not allow`,
		{
			description:
				'AWeber nodes shape output with postReceive functions only, so that Return All reads every page: a declarative step runs on the first page alone (docs/architecture.md, "Return All reads every page"). Write the step as a postReceive function.',
			itemIndex,
		},
	);
}

/**
 * The error-output item of a failed request (A10): what n8n shows and what identifies the input, all inside `error`,
 * which must be the JSON's only key for n8n 1.x to route it to the error output.
 */
export function errorOutputItem(context: IExecutePaginationFunctions, error: unknown, itemIndex: number): INodeExecutionData {
	const failure = error as RoutedError;
	const message = failure instanceof Error ? failure.message : String(error);
	const details: IDataObject = { message };
	if (failure?.description) details.description = failure.description;
	if (failure?.httpCode) details.httpCode = failure.httpCode;
	const email = emailOfItem(context);
	if (email) details.email = email;
	details.itemIndex = itemIndex;
	context.logger.debug(`AWeber: item ${itemIndex} failed and goes to the error output: ${message}`, { node: context.getNode().name });
	return { json: { error: details }, pairedItem: { item: itemIndex } };
}

/** The address the item is about, as the user gave it: its Email field, a subscriber chosen by email, or the Email filter. */
function emailOfItem(context: IExecuteSingleFunctions): string | undefined {
	for (const name of ['email', 'subscriberId.value', 'filters.email']) {
		let value: unknown;
		try {
			value = context.getNodeParameter(name, '');
		} catch {
			continue;
		}
		const email = typeof value === 'string' ? value.trim() : '';
		if (email !== '' && (name === 'email' || email.includes('@'))) return email;
	}
	return undefined;
}
