import { newSubscriberFields } from './create';

export const subscriberUpsertDescription = newSubscriberFields(
	{ operation: ['upsert'] },
	{
		offerUpdateExisting: false,
		summaryHas:
			"The subscriber's ID and link, the list and the fields sent (for an address already on the list, the tags sent, which AWeber adds to the subscriber's, and only the custom fields sent)",
	},
);
