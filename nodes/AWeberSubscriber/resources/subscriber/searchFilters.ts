import type { INodeProperties } from 'n8n-workflow';

import { customFieldsProperty } from '../../../shared/customFieldProperties';
import { tagsProperty } from '../../../shared/tags';

/** AWeber compares dates by day; a date and time chosen in n8n is sent as its date. */
const DATE_ONLY = '={{ $value ? String($value).slice(0, 10) : undefined }}';

function textFilter(displayName: string, name: string, property: string, description: string): INodeProperties {
	return { displayName, name, type: 'string', default: '', description, routing: { send: { type: 'query', property } } };
}

function numberFilter(displayName: string, name: string, property: string, description: string): INodeProperties {
	return { displayName, name, type: 'number', default: 0, description, routing: { send: { type: 'query', property } } };
}

function dateFilter(displayName: string, name: string, property: string, description: string): INodeProperties {
	return { displayName, name, type: 'dateTime', default: '', description, routing: { send: { type: 'query', property, value: DATE_ONLY } } };
}

function optionsFilter(
	displayName: string,
	name: string,
	property: string,
	values: string[],
	description: string,
): INodeProperties {
	const [first] = values;
	return {
		displayName,
		name,
		type: 'options',
		options: values.map((value) => ({ name: value.replace(/^./, (first) => first.toUpperCase()), value })),
		default: first,
		description,
		routing: { send: { type: 'query', property } },
	};
}

/** A plain text tag field where no list is chosen (account-wide search), so the list's tags cannot be offered. */
function typedTagsFilter(displayName: string, name: string, description: string): INodeProperties {
	return { displayName, name, type: 'string', default: '', placeholder: 'vip, customer', description };
}

/**
 * AWeber's subscriber search filters (`find` on a list, `findSubscribers` on the account); every filter
 * given must match. Tags, tags-not-in and custom fields are JSON-encoded by `sendSearchFilters`.
 */
export function searchFilters(options: { listChosen: boolean }): INodeProperties {
	const tagsPurpose = 'Subscribers having all these tags';
	const withoutTagsPurpose = 'Subscribers having none of these tags';
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			textFilter('Ad Tracking', 'adTracking', 'ad_tracking', 'Subscribers with this ad tracking value'),
			textFilter('Area Code', 'areaCode', 'area_code', 'Subscribers in this telephone area code (USA and Canada)'),
			textFilter('City', 'city', 'city', 'Subscribers in this city'),
			textFilter('Country', 'country', 'country', 'Subscribers in this country'),
			customFieldsProperty('Subscribers whose custom fields have these values', options),
			textFilter('DMA Code', 'dmaCode', 'dma_code', 'Subscribers in this designated market area (USA and Canada)'),
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'The subscriber with this email address',
			},
			numberFilter(
				'Last Follow-Up Message Number Sent',
				'lastFollowupMessageNumberSent',
				'last_followup_message_number_sent',
				'Subscribers at this point of the follow-up series',
			),
			dateFilter('Last Follow-Up Sent On', 'lastFollowupMessageSentAt', 'last_followup_message_sent_at', 'Subscribers sent their last follow-up on this day'),
			numberFilter('Latitude', 'latitude', 'latitude', 'Subscribers at this latitude'),
			numberFilter('Longitude', 'longitude', 'longitude', 'Subscribers at this longitude'),
			textFilter('Misc Notes', 'miscNotes', 'misc_notes', 'Subscribers with these notes'),
			textFilter('Name', 'name', 'name', 'Subscribers with this name'),
			textFilter('Postal Code', 'postalCode', 'postal_code', 'Subscribers in this postal code'),
			textFilter('Region', 'region', 'region', 'Subscribers in this state or region'),
			optionsFilter('Status', 'status', 'status', ['subscribed', 'unconfirmed', 'unsubscribed'], 'Subscribers with this status'),
			dateFilter('Subscribed After', 'subscribedAfter', 'subscribed_after', 'Subscribers who subscribed on or after this day'),
			dateFilter('Subscribed Before', 'subscribedBefore', 'subscribed_before', 'Subscribers who subscribed before this day'),
			dateFilter('Subscribed On', 'subscribedAt', 'subscribed_at', 'Subscribers who subscribed on this day'),
			optionsFilter(
				'Subscription Method',
				'subscriptionMethod',
				'subscription_method',
				['api', 'email', 'import', 'webform'],
				'How the subscribers joined',
			),
			options.listChosen
				? tagsProperty({ name: 'tags', displayName: 'Tag Names or IDs', purpose: tagsPurpose })
				: typedTagsFilter('Tags', 'tags', `${tagsPurpose} (comma-separated)`),
			optionsFilter(
				'Unsubscribe Method',
				'unsubscribeMethod',
				'unsubscribe_method',
				['unsubscribe link', 'customer cp', 'undeliverable', 'api: unsubscribe', 'api: move'],
				'How the subscribers left',
			),
			dateFilter('Unsubscribed After', 'unsubscribedAfter', 'unsubscribed_after', 'Subscribers who unsubscribed on or after this day'),
			dateFilter('Unsubscribed Before', 'unsubscribedBefore', 'unsubscribed_before', 'Subscribers who unsubscribed before this day'),
			dateFilter('Unsubscribed On', 'unsubscribedAt', 'unsubscribed_at', 'Subscribers who unsubscribed on this day'),
			dateFilter('Verified On', 'verifiedAt', 'verified_at', 'Subscribers who confirmed their address on this day'),
			options.listChosen
				? tagsProperty({ name: 'tagsNotIn', displayName: 'Without Tag Names or IDs', purpose: withoutTagsPurpose })
				: typedTagsFilter('Without Tags', 'tagsNotIn', `${withoutTagsPurpose} (comma-separated)`),
		],
	};
}
