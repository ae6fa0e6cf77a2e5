import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { RunState } from './runState';
import type { AweberContext } from './aweberContext';

/* When an item fails for good with Continue On Fail off: docs/architecture.md#when-an-item-fails. */

function continuesOnFail(context: AweberContext): boolean {
	try {
		return context.continueOnFail?.() === true;
	} catch {
		return false;
	}
}

/** An item before this one in n8n's order failed the run. */
export function isDropped(run: RunState | undefined, index: number | undefined): boolean {
	return run?.failedItem !== undefined && index !== undefined && index > run.failedItem;
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
	if (continuesOnFail(context) || isDropped(run, index)) return;
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError) || run.failures.has(index)) return;
	run.failures.set(index, { error, ownDescription: error.description ?? '' });
	if (run.failedItem === undefined || index < run.failedItem) {
		run.failedItem = index;
		run.failureMessage = error.message;
	}
	run.stop.abort();
	describeWrittenItems(run);
}

/** Every failure's description, with the account of what the run wrote (none for a run of a single item). */
function describeWrittenItems(run: RunState): void {
	if (run.items.size <= 1) return;
	for (const [index, { error, ownDescription }] of run.failures) {
		const written = [...run.written].filter((item) => item !== index).sort((a, b) => a - b);
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
			`${ownDescription ? `${ownDescription}\n` : ''}${account} Nothing was sent for the items after item ${run.failedItem ?? index}; item numbers are n8n's, from 0. ` +
			'Turn on the node\'s "On Error: Continue" setting to get every item\'s own result instead.';
	}
}

/** "item 3", "items 0, 1 and 4", "items 0-27 and 29": n8n's numbering, runs of items as ranges. */
function itemList(indexes: number[]): string {
	const ranges: string[] = [];
	for (let start = 0; start < indexes.length; ) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		ranges.push(end - start >= 2 ? `${indexes[start]}-${indexes[end]}` : indexes.slice(start, end + 1).join(', '));
		start = end + 1;
	}
	const parts = ranges.join(', ').split(', ');
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
	return new NodeOperationError(context.getNode(), `Not sent to AWeber: item ${run.failedItem ?? 0} failed first (${run.failureMessage ?? 'an error'})`, { itemIndex });
}

/** The execution was cancelled, or an earlier item failed the run: made once per run, so one listener on the execution's signal. */
export function stopSignal(execution: AbortSignal | undefined, run: RunState | undefined): AbortSignal | undefined {
	if (!run) return execution;
	if (!execution) return run.stop.signal;
	run.signal ??= AbortSignal.any([execution, run.stop.signal]);
	return run.signal;
}
