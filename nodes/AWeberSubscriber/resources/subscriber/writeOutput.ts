import type { IDataObject, IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import { isCollectionPage, isSubscriber, unexpectedAnswer } from '../../../shared/answers';
import { locationOf } from '../../../shared/followLocation';
import { buyerLinkOfPurchase, idOfLink, listOfLink } from '../../../shared/links';
import { readPathParameter } from '../../../shared/pathParameters';
import { runStateOf } from '../../../shared/runState';
import { aweberGet } from '../../../shared/transport';

/*
 * What the writes output, by their Output field: the subscriber read back from AWeber ("Subscriber From AWeber", Create
 * and Create or Update), or what is known without reading it back ("Request Summary", Create, Create or Update and
 * Track Purchase).
 */

/**
 * Create and Create or Update, "Output: Subscriber From AWeber": AWeber answers the add with the new subscriber's
 * URL in `Location` (or, for an add its first attempt carried out, its `find` answer: subscriberAddRecovery.ts), read here. The answer is output only if it is the subscriber just added (same address, same
 * list): anything else would show someone else's record as the one added (docs/aweber-behaviour.md#answers).
 */
export async function readAddedSubscriber(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const link = addedSubscriberLink(response);
	if (link === undefined) return items;
	const subscriber = await aweberGet<unknown>(this, link, undefined, { source: "the Location header of AWeber's answer" });
	const email = String(this.getNodeParameter('email', '')).trim();
	const listId = readPathParameter(this, 'listId');
	const isTheOneAdded =
		isSubscriber(subscriber) &&
		subscriber.email.toLowerCase() === email.toLowerCase() &&
		String(listOfLink(subscriber.self_link).list_id) === String(listId);
	if (!isTheOneAdded) {
		throw unexpectedAnswer(
			this.getNode(),
			`the subscriber ${email} on list ${listId}`,
			subscriber,
			'reading the subscriber back after adding it',
			this.getItemIndex(),
			`The add itself was carried out: ${email} was added to the list (or updated, if already on it). Do not run the step again for this item; read the subscriber with Get to see it.`,
		);
	}
	return [{ json: subscriber }];
}

/**
 * The link of the subscriber an add created: the `Location` of AWeber's 201, or, for an add its first attempt carried
 * out, the self_link of the subscriber AWeber's `find` answered (findEarlierAdd, nodes/shared/subscriberAddRecovery.ts).
 */
export function addedSubscriberLink(response: IN8nHttpFullResponse): string | undefined {
	const [found] = isCollectionPage(response.body) ? response.body.entries : [];
	return locationOf(response) ?? (typeof found?.self_link === 'string' ? found.self_link : undefined);
}

// "Output: Request Summary": from the fields each item sent and AWeber's `Location`.

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
