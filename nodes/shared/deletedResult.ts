import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

/** AWeber answers a DELETE with an empty body; say what happened rather than output an empty item. */
export async function reportDeleted(this: IExecuteSingleFunctions): Promise<INodeExecutionData[]> {
	return [{ json: { deleted: true } }];
}
