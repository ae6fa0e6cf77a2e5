import type { IDataObject, IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import { locationOf } from '../../../shared/followLocation';
import { buyerLinkOfPurchase, idOfLink, listOfLink } from '../../../shared/links';
import { runStateOf } from '../../../shared/runState';
import { addedSubscriberLink } from './addedSubscriber';

/*
 * "Output: Request Summary" of Create, Create or Update and Track Purchase: what is known without reading the
 * subscriber back, from the fields each item sent and AWeber's `Location`.
 */

/** Request switches, not subscriber data: left out of the summary. */
const NOT_SUBSCRIBER_DATA = ['update_existing', 'strict_custom_fields'];

/** What each item of a node run sent (the body its preSend built), for "Output: Request Summary": the run's state (runState.ts). */
export function rememberSentFields(context: IExecuteSingleFunctions, body: IDataObject): void {
	const byItem = runStateOf(context)?.sentFields;
	if (!byItem) return;
	const fields = { ...body };
	for (const name of NOT_SUBSCRIBER_DATA) delete fields[name];
	byItem.set(context.getItemIndex(), fields);
}

/** The summary item: the subscriber's ID, list and link from its link, and the fields the item sent. */
function summaryOf(context: IExecuteSingleFunctions, subscriberLink: string, extra: IDataObject = {}): INodeExecutionData[] {
	const sent = runStateOf(context)?.sentFields.get(context.getItemIndex()) ?? {};
	return [{ json: { id: idOfLink(subscriberLink, 'subscribers'), email: sent.email, ...sent, ...listOfLink(subscriberLink), self_link: subscriberLink, ...extra } }];
}

/**
 * Add and Create or Update with "Output: Request Summary": what is known without reading the subscriber back
 * (one call instead of two): its ID and link from `Location` (docs/aweber-behaviour.md#status-codes), its list,
 * and the fields sent. Also what an add its first attempt carried out outputs, from AWeber's `find` answer
 * (subscriberAddRecovery.ts).
 */
export async function summarizeSubscriberAdd(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const location = addedSubscriberLink(response);
	return location === undefined ? items : summaryOf(this, location);
}

/**
 * Track Purchase with "Output: Request Summary": the fields sent, and the buyer's link and activity link from
 * `Location` (the subscriber's activity, docs/aweber-behaviour.md#status-codes), without reading the subscriber.
 */
export async function summarizePurchase(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const location = locationOf(response);
	return location === undefined ? items : summaryOf(this, buyerLinkOfPurchase(location), { purchase_activity_link: location });
}
