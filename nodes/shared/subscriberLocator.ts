import type { INodeProperties } from 'n8n-workflow';

import { aweberLocator } from './descriptions';

const byIdListOrUrl = aweberLocator({
	name: 'subscriberId',
	displayName: 'Subscriber',
	searchMethod: 'searchSubscribers',
	urlSegment: 'subscribers',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/subscribers/987654321',
	idPlaceholder: '987654321',
	description: 'The subscriber on the chosen list: pick one, or give its ID, its AWeber URL or its email address',
});

/** A subscriber of the chosen list: from the list, by ID, by URL, or by email address. */
export const subscriberLocator: INodeProperties = {
	...byIdListOrUrl,
	modes: [
		...(byIdListOrUrl.modes ?? []),
		{
			displayName: 'By Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@example.com',
			validation: [
				{ type: 'regex', properties: { regex: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', errorMessage: 'Not an email address' } },
			],
		},
	],
};

/**
 * The subscriber entry's path, or the list's subscriber collection when the subscriber is given by email
 * (AWeber addresses those with `?subscriber_email=`, or they are found first). Expressions see a locator's
 * value but not its mode, so an address is recognised by its "@": IDs are numbers and AWeber URLs have none.
 */
export const subscriberEntryUrl =
	'={{ "/accounts/{accountId}/lists/{listId}/subscribers" + (String($parameter.subscriberId).includes("@") ? "" : "/{subscriberId}") }}';
