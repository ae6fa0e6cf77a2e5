import { updateDisplayOptions } from 'n8n-workflow';

import { newSubscriberFields } from './create';

const properties = newSubscriberFields({
	offerUpdateExisting: false,
	summaryHas:
		"The subscriber's ID and link, the list and the fields sent (for an address already on the list, the tags sent, which AWeber adds to the subscriber's, and only the custom fields sent)",
});

export const subscriberUpsertDescription = updateDisplayOptions({ show: { operation: ['upsert'] } }, properties);
