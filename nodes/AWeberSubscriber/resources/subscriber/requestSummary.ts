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

function sentFieldsOf(context: IExecuteSingleFunctions): IDataObject {
	return runStateOf(context)?.sentFields.get(context.getItemIndex()) ?? {};
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
	if (location === undefined) return items;
	const sent = sentFieldsOf(this);
	return [{ json: { id: idOfLink(location, 'subscribers'), email: sent.email, ...sent, ...listOfLink(location), self_link: location } }];
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
	if (location === undefined) return items;
	const subscriberLink = buyerLinkOfPurchase(location);
	const sent = sentFieldsOf(this);
	return [
		{
			json: {
				id: idOfLink(subscriberLink, 'subscribers'),
				email: sent.email,
				...sent,
				...listOfLink(subscriberLink),
				self_link: subscriberLink,
				purchase_activity_link: location,
			},
		},
	];
}
