import { newSubscriberFields } from './create';

export const subscriberUpsertDescription = newSubscriberFields({ operation: ['upsert'] }, { offerUpdateExisting: false });
