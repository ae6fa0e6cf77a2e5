import type { IDataObject } from 'n8n-workflow';

/** How many delivery ids the trigger remembers: AWeber retries within minutes, so the latest thousand is plenty. */
export const REMEMBERED_DELIVERIES = 1000;

/**
 * Records a delivery id in the node's static data (saved by n8n with the workflow, so it survives restarts and
 * is shared by every n8n process), keeping only the newest `limit` ids. Returns false when the id was already
 * there: AWeber may send the same delivery twice.
 */
export function rememberDelivery(staticData: IDataObject, deliveryId: string, limit = REMEMBERED_DELIVERIES): boolean {
	const seen = Array.isArray(staticData.seenDeliveryIds) ? (staticData.seenDeliveryIds as string[]) : [];
	if (seen.includes(deliveryId)) return false;
	staticData.seenDeliveryIds = [...seen, deliveryId].slice(-limit);
	return true;
}
