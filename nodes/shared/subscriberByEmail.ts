import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { unexpectedAnswer } from './answers';
import { requireCollectionPage } from './collections';
import { checkEmailAddress } from './fieldValidation';
import { idOfLink } from './links';
import { listPathOf } from './listPath';
import { aweberGet } from './transport';

/* A subscriber given by email address (subscriberLocator.ts's "By Email" mode), found at request time. */

/** The email address when the subscriber is given by email (checked), else undefined. */
export function subscriberEmailOf(context: IExecuteSingleFunctions): string | undefined {
	const locator = context.getNodeParameter('subscriberId', undefined, { extractValue: false }) as
		| { mode?: string; value?: unknown }
		| undefined;
	if (typeof locator !== 'object' || locator === null) return undefined;
	const byEmail = locator.mode === 'email' || (typeof locator.value === 'string' && locator.value.includes('@'));
	return byEmail ? checkEmailAddress(context, locator.value, 'Subscriber') : undefined;
}

/**
 * The subscriber with this address on the chosen list (AWeber's `find`), or an error naming the address; an
 * answer that is not a page of subscribers, or whose first entry has another address, is refused (answers.ts).
 */
export async function findSubscriberByEmail(context: IExecuteSingleFunctions, email: string): Promise<IDataObject> {
	const body = await aweberGet<unknown>(context, `${listPathOf(context)}/subscribers`, { 'ws.op': 'find', email });
	const where = `looking up the subscriber ${email}`;
	const found = requireCollectionPage(context, body, where, context.getItemIndex());
	const subscriber = found.entries[0];
	if (!subscriber) throw subscriberNotFound(context, email);
	if (typeof subscriber.email !== 'string' || subscriber.email.toLowerCase() !== email.toLowerCase()) {
		throw unexpectedAnswer(context.getNode(), `the subscriber ${email}`, subscriber, where, context.getItemIndex());
	}
	return subscriber;
}

/**
 * The ID of a subscriber AWeber found, for a path: its `id`, else the one its `self_link` ends with (AWeber may
 * send null in either, docs/aweber-behaviour.md#nullable-fields); an error naming the address when neither is there.
 */
export function foundSubscriberId(context: IExecuteSingleFunctions, subscriber: IDataObject, email: string): string {
	if ((typeof subscriber.id === 'number' || typeof subscriber.id === 'string') && String(subscriber.id) !== '') return String(subscriber.id);
	const fromLink = typeof subscriber.self_link === 'string' ? idOfLink(subscriber.self_link, 'subscribers') : undefined;
	if (fromLink !== undefined) return String(fromLink);
	throw new NodeOperationError(context.getNode(), `AWeber found the subscriber "${email}" but gave no ID for it`, {
		description: 'AWeber answered the search without the subscriber\'s id and self_link. Choose the subscriber by ID instead.',
		itemIndex: context.getItemIndex(),
	});
}

export function subscriberNotFound(context: IExecuteSingleFunctions, email: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), `No subscriber with the email address "${email}" is on this list`, {
		description: 'Check the address and the list chosen in the node.',
		itemIndex: context.getItemIndex(),
	});
}
