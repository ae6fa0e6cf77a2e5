import type { IExecuteSingleFunctions, IHttpRequestOptions, NodeHint } from 'n8n-workflow';

import { BULK_ADD_ADVICE } from '../../../shared/bulkAdds';

/**
 * More adds than this in one run of Create or Create or Update look like an import rather than a sync; the node then
 * says so, and nothing else changes (docs/aweber-behaviour.md#bulk-adds says why 1,000).
 */
export const BULK_ADD_THRESHOLD = 1000;

export const BULK_ADD_MESSAGE = `This run adds more than ${BULK_ADD_THRESHOLD.toLocaleString('en-US')} subscribers. ${BULK_ADD_ADVICE}.`;

/**
 * The hint in the output panel. Declarative nodes cannot add execution hints: `addExecutionHints` is on the context
 * of nodes with an `execute` method, and RoutingNode gives preSend and postReceive a per-item context without it
 * (n8n 1.x and 2.x alike). A hint of the node's description is n8n's way for them: the editor shows it after a run,
 * when its condition holds for the run's input items (one add per item).
 */
export const bulkAddHint: NodeHint = {
	message: BULK_ADD_MESSAGE,
	type: 'warning',
	location: 'outputPane',
	whenToDisplay: 'afterExecution',
	displayCondition: `={{ ["create", "upsert"].includes($parameter.operation) && $input.all().length > ${BULK_ADD_THRESHOLD} }}`,
};

/**
 * The same advice in n8n's log, once per run, where production runs are looked at. Declared first on Create and
 * Create or Update, so it counts every item that reaches the add; it never holds an item back.
 */
export async function noticeBulkAdd(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (this.getItemIndex() === BULK_ADD_THRESHOLD) {
		this.logger.warn(`AWeber: ${BULK_ADD_MESSAGE}`, { node: this.getNode().name, workflowId: this.getWorkflow().id });
	}
	return requestOptions;
}
