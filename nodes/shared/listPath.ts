import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { readPathParameter } from './pathParameters';

/** `/accounts/{a}/lists/{l}` from the node's Account and List fields, for hand-written requests of a routed operation. */
export function listPathOf(context: IExecuteSingleFunctions): string {
	return `/accounts/${readPathParameter(context, 'accountId')}/lists/${readPathParameter(context, 'listId')}`;
}
