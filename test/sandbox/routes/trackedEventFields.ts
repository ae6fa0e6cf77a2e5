// A tracked event's own fields as AWeber names them: the same in a message's tracked_events and in a subscriber's
// activity (event_type there, type here, stays with each caller).
import type { TrackedEventRecord } from '../state';

export function trackedEventFields(event: TrackedEventRecord): Record<string, unknown> {
	return {
		url: event.url,
		vendor: event.vendor,
		product_name: event.productName,
		event_note: event.eventNote,
		currency: event.currency,
		value: event.value,
	};
}
