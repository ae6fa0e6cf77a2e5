import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { asNodeError } from './errors';
import { stopRunOnFailure } from './runFailure';
import { runItemOf, runStateOf } from './runState';

/**
 * A preSend of an AWeber operation (the item's input read and checked before any request): a refusal there
 * stops the run as a refusal by AWeber does, so nothing is sent for the items after this one, and its error
 * says which items were written. Under On Error "Continue (using error output)" the refused item instead reaches
 * the routed entry (routing.ts), which outputs the error with the input item's fields and sends nothing (A10);
 * the item's later preSends are skipped. Every operation's preSend is declared through it.
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
	// The contract suite checks that every preSend of every operation is declared through here.
	return Object.defineProperty(checked, REFUSES_BAD_INPUT, { value: true });
}

/** Marks a preSend declared through `refusingBadInput`. */
export const REFUSES_BAD_INPUT = 'aweberRefusesBadInput';

/**
 * On Error "Continue (using error output)": n8n's WorkflowExecute gives an error-output item the fields of the
 * input item it came from only when the node outputs the error as n8n's own nodes do, `{ error }` as the JSON
 * with the item's `pairedItem` (an item carrying n8n's error object is reduced to `{ error: message }`, which is
 * what RoutingNode makes of a thrown error). So the routed entry outputs such an item itself in that mode.
 */
export function sendsErrorsToErrorOutput(context: IExecuteSingleFunctions): boolean {
	return context.getNode().onError === 'continueErrorOutput' && context.continueOnFail();
}

/** The item's input refused by a preSend, if any, taken from the run's state: the routed entry outputs it once. */
export function takeDeferredFailure(context: IExecuteSingleFunctions): unknown {
	const refused = runStateOf(context)?.refusedInputs;
	const index = context.getItemIndex();
	const failure = refused?.get(index);
	refused?.delete(index);
	return failure;
}
