import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	asJsonText,
	mergeCustomFields,
	newSubscriberCustomFields,
	readCustomFieldValues,
	type CustomFieldValue,
} from '../../../shared/customFields';
import { isSubscriber, unexpectedAnswer } from '../../../shared/answers';
import { checkEmailAddress, checkIpAddress, checkNumber, checkText, invalidField } from '../../../shared/fieldValidation';
import { locationOf } from '../../../shared/followLocation';
import { fillPathParameters, readPathParameter } from '../../../shared/pathParameters';
import { buyerLinkOfPurchase, idOfLink } from '../../../shared/links';
import { requireCollectionPage } from '../../../shared/collections';
import { findSubscriberByEmail, foundSubscriberId, subscriberEmailOf, subscriberNotFound } from '../../../shared/subscriberByEmail';
import { checkTags, readTags } from '../../../shared/tags';
import { guardUnsubscribes, unsubscribes } from '../../../shared/unsubscribeGuard';
import { replacedCustomFields } from './everyCustomField';
import { rememberSentFields } from './writeOutput';
import { aweberGet } from '../../../shared/transport';

function bodyOf(requestOptions: IHttpRequestOptions): IDataObject {
	if (typeof requestOptions.body !== 'object' || requestOptions.body === null) requestOptions.body = {};
	return requestOptions.body as IDataObject;
}

/**
 * Add and Upsert: the address, tags (an array on create) and custom fields, checked before anything is sent.
 * Name, ad tracking, notes and follow-up number are sent by the fields' own routing.
 */
export async function sendNewSubscriber(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = bodyOf(requestOptions);
	body.email = checkEmailAddress(this, this.getNodeParameter('email'), 'Email');
	const ipAddress = this.getNodeParameter('additionalFields.ipAddress', '') as unknown;
	if (ipAddress !== '') body.ip_address = checkIpAddress(this, ipAddress, 'IP Address');
	const tags = readTags(this, 'additionalFields.tags', 'Tags');
	if (tags.length > 0) body.tags = tags;
	const strict = this.getNodeParameter('options.strictCustomFields', false) as boolean;
	const values = readCustomFieldValues(this, 'additionalFields.customFields');
	if (values.length > 0) body.custom_fields = await newSubscriberCustomFields(this, values, strict);
	if (strict) body.strict_custom_fields = 'true';
	rememberSentFields(this, body);
	return requestOptions;
}

/** The changes of Update (and Unsubscribe) read from the node, checked before any request. */
function readSubscriberChanges(context: IExecuteSingleFunctions, body: IDataObject): CustomFieldValue[] {
	const newEmail = context.getNodeParameter('updateFields.email', '') as unknown;
	if (newEmail !== '') body.email = checkEmailAddress(context, newEmail, 'Email');
	const add = readTags(context, 'updateFields.addTags', 'Add Tags');
	const remove = readTags(context, 'updateFields.removeTags', 'Remove Tags');
	if (add.length > 0 || remove.length > 0) {
		const removed = remove.filter((tag) => !add.includes(tag));
		body.tags = { ...(add.length > 0 ? { add } : {}), ...(removed.length > 0 ? { remove: removed } : {}) };
	}
	return readCustomFieldValues(context, 'updateFields.customFields');
}

/**
 * Update and Unsubscribe. AWeber sets every custom field missing from a PATCH to null, so the subscriber is
 * read first (one GET, or a `find` when chosen by email) and its current custom field values are sent back
 * with the changes: an update costs two calls and never wipes the fields it does not touch. (AWeber does not
 * say whether a PATCH without `custom_fields` keeps them, so every PATCH sends them.) A subscriber chosen by
 * email is then written with AWeber's `?subscriber_email=` form.
 */
export async function sendSubscriberChanges(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	// The subscriber is read at the URL: its `{placeholders}` are filled here, whatever preSend ran before this one.
	requestOptions.url = fillPathParameters(this, requestOptions.url);
	// Before anything is read or written: a run that would unsubscribe too much of the list is refused whole.
	if (unsubscribes(this)) await guardUnsubscribes(this);
	const body = bodyOf(requestOptions);
	const email = subscriberEmailOf(this);
	const changes = readSubscriberChanges(this, body);
	const changed = Object.values(body).some((value) => value !== undefined);
	if (!changed && changes.length === 0) {
		throw new NodeOperationError(this.getNode(), 'No change given', {
			description: 'Add at least one field under "Update Fields".',
			itemIndex: this.getItemIndex(),
		});
	}
	const strict = this.getNodeParameter('options.strictCustomFields', false) as boolean;
	// "Replace All Custom Fields" (a sync) gives the whole set: nothing to keep, so no read (everyCustomField.ts).
	const replaced = await replacedCustomFields(this, changes, strict);
	if (replaced !== undefined) body.custom_fields = replaced;
	else {
		const current = email ? await findSubscriberByEmail(this, email) : await aweberGet<unknown>(this, requestOptions.url);
		// The custom fields sent back are the subscriber's own: an answer that is not that subscriber (a maintenance
		// page, another resource) would make the PATCH wipe them (docs/aweber-behaviour.md#answers).
		if (!isSubscriber(current) || (email === undefined && !isSubscriberAt(current, requestOptions.url))) {
			const asked = email ?? String(idOfLink(requestOptions.url, 'subscribers'));
			throw unexpectedAnswer(this.getNode(), `the subscriber ${asked}`, current, 'reading the subscriber before changing it', this.getItemIndex());
		}
		body.custom_fields = mergeCustomFields(this, current.custom_fields, changes, strict);
	}
	if (strict) body.strict_custom_fields = 'true';
	if (email) requestOptions.qs = { ...requestOptions.qs, subscriber_email: email };
	return asJsonText(requestOptions);
}

/** The subscriber read is the one at `url` (its ID is the URL's last segment). */
function isSubscriberAt(subscriber: IDataObject, url: string): boolean {
	return String(subscriber.id) === String(idOfLink(url, 'subscribers'));
}

/** Delete by email uses AWeber's `?subscriber_email=` form on the subscriber collection. */
export async function sendSubscriberEmail(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const email = subscriberEmailOf(this);
	if (email) requestOptions.qs = { ...requestOptions.qs, subscriber_email: email };
	return requestOptions;
}

/** Get by email is AWeber's `find` on the list (one call); `unwrapFoundSubscriber` outputs the match. */
export async function findSubscriberToGet(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const email = subscriberEmailOf(this);
	if (email) requestOptions.qs = { ...requestOptions.qs, 'ws.op': 'find', email };
	return requestOptions;
}

export async function unwrapFoundSubscriber(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const email = subscriberEmailOf(this);
	if (email === undefined) return items;
	const [subscriber] = requireCollectionPage(this, response.body, `looking up the subscriber ${email}`, this.getItemIndex()).entries;
	if (!subscriber) throw subscriberNotFound(this, email);
	return [{ json: subscriber }];
}

/** Activity and Move need the subscriber's ID in the path: a subscriber chosen by email is found first. */
export async function resolveSubscriberEmail(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const email = subscriberEmailOf(this);
	if (email) {
		const subscriber = await findSubscriberByEmail(this, email);
		requestOptions.url = `${requestOptions.url}/${encodeURIComponent(foundSubscriberId(this, subscriber, email))}`;
	}
	return requestOptions;
}

/** Move names the destination by its AWeber link (`list_link`), which is the list's self_link. */
export async function sendMoveDestination(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const destination = readPathParameter(this, 'destinationListId');
	if (destination === readPathParameter(this, 'listId')) {
		throw invalidField(this, 'Destination List', 'is the list the subscriber is on', 'Choose another list to move the subscriber to.');
	}
	// The API base of every request ends in /1.0, with no slash after it (requestDefaults.ts).
	bodyOf(requestOptions).list_link = `${String(requestOptions.baseURL)}/accounts/${readPathParameter(this, 'accountId')}/lists/${destination}`;
	return requestOptions;
}

/** AWeber's timestamp form with an explicit zone, e.g. 2025-01-06T09:00:00+00:00. */
function aweberTimestamp(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Track Purchase: every field AWeber requires, checked; the event time defaults to now. */
export async function sendPurchase(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = bodyOf(requestOptions);
	const text = (name: string, label: string) => checkText(this, this.getNodeParameter(name), label);
	body.email = checkEmailAddress(this, this.getNodeParameter('email'), 'Email');
	body.ip_address = checkIpAddress(this, this.getNodeParameter('ipAddress'), 'IP Address');
	body.product_name = text('productName', 'Product Name');
	body.vendor = text('vendor', 'Vendor');
	body.event_note = text('eventNote', 'Event Note');
	const url = text('url', 'URL');
	if (!/^https?:\/\/\S+$/i.test(url)) throw invalidField(this, 'URL', `must be a web address (http or https), not "${url}"`);
	body.url = url;
	const currency = text('currency', 'Currency').toUpperCase();
	if (!/^[A-Z]{3}$/.test(currency)) throw invalidField(this, 'Currency', `must be a three-letter ISO currency code such as USD, not "${currency}"`);
	body.currency = currency;
	body.value = checkNumber(this, this.getNodeParameter('value', Number.NaN), 'Value');
	const eventTime = this.getNodeParameter('additionalFields.eventTime', '') as unknown;
	if (eventTime === '' || eventTime === undefined || eventTime === null) {
		body.event_time = aweberTimestamp(new Date());
	} else {
		const time = new Date(String(eventTime));
		if (Number.isNaN(time.getTime())) throw invalidField(this, 'Event Time', `must be a date and time, not "${String(eventTime)}"`);
		body.event_time = String(eventTime);
	}
	const tags = readTags(this, 'additionalFields.tags', 'Tags');
	if (tags.length > 0) body.tags = tags;
	const values = readCustomFieldValues(this, 'additionalFields.customFields');
	if (values.length > 0) body.custom_fields = await newSubscriberCustomFields(this, values, false);
	rememberSentFields(this, body);
	return requestOptions;
}

/**
 * AWeber answers a purchase with the subscriber's activity link in `Location` (the sale shows up there
 * shortly after); output the subscriber, who is created when the address was not on the list.
 */
export async function outputPurchaseSubscriber(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const location = locationOf(response);
	if (location === undefined) return items;
	const subscriberLink = buyerLinkOfPurchase(location);
	const subscriber = await aweberGet(this, subscriberLink, undefined, { source: "the Location header of AWeber's answer" });
	return [{ json: { ...subscriber, purchase_activity_link: location } }];
}

/** The search filters AWeber wants JSON-encoded (tags, tags_not_in, custom_fields), and a checked email. */
export async function sendSearchFilters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const qs = (requestOptions.qs ??= {});
	const filters = this.getNodeParameter('filters', {}) as IDataObject;
	if (filters.email !== undefined) qs.email = checkEmailAddress(this, filters.email, 'Email');
	const tags = checkTags(this, filters.tags, 'Tags');
	if (tags.length > 0) qs.tags = JSON.stringify(tags);
	const tagsNotIn = checkTags(this, filters.tagsNotIn, 'Without Tags');
	if (tagsNotIn.length > 0) qs.tags_not_in = JSON.stringify(tagsNotIn);
	const customFields = readCustomFieldValues(this, 'filters.customFields');
	if (customFields.length > 0) {
		qs.custom_fields = JSON.stringify(Object.fromEntries(customFields.map(({ name, value }) => [name, value])));
	}
	return requestOptions;
}
