import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { unexpectedAnswer } from './answers';
import { DEFAULT_UNSUBSCRIBE_LIMIT_PERCENT } from './unsubscribeLimit';
import { listPathOf } from './listPath';
import { runStateOf } from './runState';
import { aweberGet } from './transport';

/*
 * The guard against emptying a list (docs/sync.md#the-guard-against-emptying-a-list): a run of Unsubscribe, or of
 * Update setting the status to unsubscribed, refuses before any write when it would unsubscribe more than a share of
 * the list's subscribed subscribers. A sync whose source failed (came back empty, or its address column renamed)
 * otherwise sees every subscriber as removed and unsubscribes the whole list.
 */

/** Whether this item unsubscribes: the Unsubscribe operation, or Update with Status "Unsubscribed". */
export function unsubscribes(context: IExecuteSingleFunctions): boolean {
	const operation = context.getNodeParameter('operation', '') as string;
	return operation === 'unsubscribe' || (operation === 'update' && context.getNodeParameter('updateFields.status', '') === 'unsubscribed');
}

/** Awaited by every unsubscribing item before it sends anything: one read of the list per run decides for all of them. */
export async function guardUnsubscribes(context: IExecuteSingleFunctions): Promise<void> {
	const run = runStateOf(context);
	if (!run) return await checkUnsubscribeLimit(context);
	run.unsubscribeGuard ??= checkUnsubscribeLimit(context);
	await run.unsubscribeGuard;
}

/** The run's items (A5: they share the execute data), each one subscriber to unsubscribe. */
function itemsOfRun(context: IExecuteSingleFunctions): number {
	const items = context.getExecuteData().data?.main?.[0];
	return Array.isArray(items) ? items.length : 1;
}

async function checkUnsubscribeLimit(context: IExecuteSingleFunctions): Promise<void> {
	const count = Number(context.getNodeParameter('options.unsubscribeLimitCount', 0));
	const percent = Number(context.getNodeParameter('options.unsubscribeLimitPercent', DEFAULT_UNSUBSCRIBE_LIMIT_PERCENT));
	const asked = itemsOfRun(context);
	// One is always allowed: a single unsubscribe (an event, a click) costs no read of the list.
	if (asked <= 1 || (count > 0 && asked <= count)) return;
	const list = await aweberGet<Record<string, unknown>>(context, listPathOf(context));
	// AWeber's list carries total_subscribed_subscribers (docs/aweber-behaviour.md#list-totals).
	const subscribed = list?.total_subscribed_subscribers;
	if (typeof subscribed !== 'number' || !Number.isFinite(subscribed)) {
		throw unexpectedAnswer(context.getNode(), 'a list with its number of subscribed subscribers', list, 'checking how many subscribers this run may unsubscribe', context.getItemIndex());
	}
	const allowed = count > 0 ? count : Math.max(1, Math.floor((subscribed * (Number.isFinite(percent) ? percent : DEFAULT_UNSUBSCRIBE_LIMIT_PERCENT)) / 100));
	if (asked <= allowed) return;
	const limit = count > 0 ? `the limit of ${count}` : `the limit of ${allowed} (${percent} % of them)`;
	throw new NodeOperationError(context.getNode(), `This run would unsubscribe ${asked} of the list's ${subscribed} subscribed subscribers, more than ${limit}`, {
		description:
			'Nothing was unsubscribed. A source that came back empty, or whose address column is named differently (say `Email` for `email`), makes every subscriber look removed: check the source first. ' +
			'If these unsubscribes are right, raise "Most to Unsubscribe (%)" or set "Most to Unsubscribe (Count)" under Options of this node, and run it again.',
		itemIndex: context.getItemIndex(),
	});
}
