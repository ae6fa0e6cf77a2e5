import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { comparableSubscriber } from '../../../shared/normalForm';
import { eachOutputEntry } from '../../../shared/simplify';

/*
 * "Shape for Comparison" (Get Many): each subscriber as the fields a sync compares, in the normal form
 * (normalForm.ts), so that n8n's Compare Datasets node, which compares whole items with deep equality, sees a
 * subscriber and a source contact shaped by "Shape Source for Comparison" (shapeSource.ts) with the same data as
 * equal (docs/sync.md). Nothing else is kept but the status, which the example's Compare Datasets skips: any other
 * field would make every pair differ.
 */

export { comparableSubscriber };

/** The postReceive of the field (getAll.ts): each entry of every page (the routed entry runs it on the further pages too). */
export async function shapeForComparison(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	if (this.getNodeParameter('shapeForComparison', false) !== true) return items;
	return eachOutputEntry(items, comparableSubscriber);
}
