import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import { isCollectionPage, isSubscriber, unexpectedAnswer } from '../../../shared/answers';
import { locationOf } from '../../../shared/followLocation';
import { listOfLink } from '../../../shared/links';
import { readPathParameter } from '../../../shared/pathParameters';
import { aweberGet } from '../../../shared/transport';

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
