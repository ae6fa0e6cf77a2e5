import type { IDataObject, IExecuteSingleFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { isCollectionPage } from './answers';
import { addedByEarlierAttempt } from './failureDecision';
import { aweberApiRequest } from './transport';

/*
 * Create and Create or Update: a retried add that meets AWeber's "already subscribed" after an unknown outcome may
 * have been carried out by its first attempt (docs/aweber-behaviour.md#add-subscriber). What that attempt created is
 * found with AWeber's `find` for the item's Email field, and AWeber's answer to it goes as it came to the operation's
 * own postReceive, which reads the subscriber from it as from a 201's `Location` (`addedSubscriberLink` in
 * nodes/AWeberSubscriber/resources/subscriber/writeOutput.ts): the package makes up no answer.
 */

/**
 * AWeber's answer to the `find` of the item's Email on the list (`collectionUrl`, the add's URL, without a query:
 * routing sends that in `qs`), when it shows the one subscriber an earlier attempt of this add created; undefined
 * when there is none, and the refusal stands.
 */
export async function findEarlierAdd(
	context: IExecuteSingleFunctions,
	collectionUrl: string,
	firstSentAt: number | undefined,
): Promise<IN8nHttpFullResponse | undefined> {
	const email = String(context.getNodeParameter('email')).trim();
	const answer = await aweberApiRequest(context, { method: 'GET', url: collectionUrl, qs: { 'ws.op': 'find', email } });
	const subscriber = foundSubscriberOf(answer);
	if (subscriber === undefined) return undefined;
	// The address may have been on the list before: only a subscription AWeber dates after the first attempt was
	// sent is that attempt's doing.
	if (firstSentAt === undefined || !addedByEarlierAttempt(subscriber.subscribed_at, firstSentAt)) return undefined;
	context.logger.info(`AWeber: a retried add of ${email} was refused as a duplicate; the first attempt had added it, so its subscriber is the result`, {
		node: context.getNode().name,
	});
	return answer;
}

/** The first subscriber of a `find` answer, if it has a link to read it at. */
function foundSubscriberOf(answer: IN8nHttpFullResponse): IDataObject | undefined {
	const [subscriber] = isCollectionPage(answer.body) ? answer.body.entries : [];
	return subscriber !== undefined && typeof subscriber.self_link === 'string' ? subscriber : undefined;
}
