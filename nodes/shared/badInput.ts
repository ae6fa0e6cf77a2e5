import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { asNodeError } from './errors';
import { stopRunOnFailure } from './runFailure';
import { runItemOf, runStateOf } from './runState';

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
