import type { IDataObject } from 'n8n-workflow';

/** At most this many deliveries are remembered; beyond it the oldest are forgotten first (docs/triggers.md). */
export const REMEMBERED_DELIVERIES = 1000;

/**
 * Deliveries are remembered at least this long: AWeber's retry schedule is not documented (the sandbox retries
 * after 30, 60 and 120 s), and a retry is only recognised by its unchanged AWeber-Delivery-ID.
 */
export const MIN_RETENTION_MS = 60 * 60_000;

/** One accepted delivery, as kept in the trigger's static data (`deliveryLog`). */
export interface RememberedDelivery {
	/** The AWeber-Delivery-ID header, when there was one. */
	id?: string;
	/** SHA-256 of what the signature covers (Date and body): a replay carries the same, whatever its id header says. */
	digest: string;
	/** Epoch ms after which the entry is dropped. */
	until: number;
}

export interface DeliveryFingerprint {
	id?: string;
	digest: string;
	/** Epoch ms until which a copy could still be accepted: its Date plus the Date window, and at least MIN_RETENTION_MS. */
	until: number;
}

function isRemembered(entry: unknown): entry is RememberedDelivery {
	const candidate = entry as RememberedDelivery | null;
	return (
		typeof candidate === 'object' &&
		candidate !== null &&
		typeof candidate.digest === 'string' &&
		typeof candidate.until === 'number' &&
		(candidate.id === undefined || typeof candidate.id === 'string')
	);
}

/** The stored entries still in force, oldest first; ids saved by earlier versions (`seenDeliveryIds`) are carried over. */
function liveEntries(staticData: IDataObject, now: number): RememberedDelivery[] {
	const stored = Array.isArray(staticData.deliveryLog) ? (staticData.deliveryLog as unknown[]) : [];
	const entries = stored.filter(isRemembered).filter((entry) => entry.until >= now);
	if (Array.isArray(staticData.seenDeliveryIds)) {
		const legacy = (staticData.seenDeliveryIds as unknown[]).filter((id): id is string => typeof id === 'string');
		entries.unshift(...legacy.map((id) => ({ id, digest: '', until: now + MIN_RETENTION_MS })));
	}
	return entries;
}

/**
 * Records a delivery in the node's static data (saved by n8n with the workflow, so it survives restarts and is read
 * by every n8n process). Returns false when its id or its signed content was seen before: AWeber's retry (same id,
 * new Date and signature) or a replay (same Date and signature, any id or none). A retry's new digest is kept too,
 * so a captured retry cannot be replayed under another id; a replay adds nothing, so replays cannot push genuine
 * entries out. Entries are pruned by age, then by count.
 */
export function rememberDelivery(
	staticData: IDataObject,
	delivery: DeliveryFingerprint,
	now = Date.now(),
	limit = REMEMBERED_DELIVERIES,
): boolean {
	const entries = liveEntries(staticData, now);
	const digestSeen = entries.some((entry) => entry.digest === delivery.digest);
	const idSeen = delivery.id !== undefined && entries.some((entry) => entry.id === delivery.id);
	if (!digestSeen) {
		entries.push({ ...(delivery.id === undefined ? {} : { id: delivery.id }), digest: delivery.digest, until: delivery.until });
	}
	staticData.deliveryLog = entries.slice(-limit);
	delete staticData.seenDeliveryIds;
	return !digestSeen && !idSeen;
}
