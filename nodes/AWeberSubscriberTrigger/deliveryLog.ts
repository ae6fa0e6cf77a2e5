import type { IDataObject } from 'n8n-workflow';

/**
 * Deliveries whose Date window has passed are remembered up to this many (for AWeber's retries, recognised by id);
 * the oldest are forgotten first (docs/triggers.md).
 */
export const REMEMBERED_DELIVERIES = 1000;

/**
 * Deliveries still inside their Date window could be replayed, so they are all kept, up to this ceiling: the log
 * holds at most max(REMEMBERED_DELIVERIES, deliveries still in their window) entries, never more than this.
 */
export const MAX_REMEMBERED_DELIVERIES = 10_000;

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
	/** Epoch ms until which a copy would still pass the Date check; until then the entry is never pushed out by count. */
	replayableUntil?: number;
}

export type DeliveryFingerprint = RememberedDelivery;

function isRemembered(entry: unknown): entry is RememberedDelivery {
	const candidate = entry as RememberedDelivery | null;
	return (
		typeof candidate === 'object' &&
		candidate !== null &&
		typeof candidate.digest === 'string' &&
		typeof candidate.until === 'number' &&
		(candidate.id === undefined || typeof candidate.id === 'string') &&
		(candidate.replayableUntil === undefined || typeof candidate.replayableUntil === 'number')
	);
}

/** The stored entries still in force; ids saved by earlier versions (`seenDeliveryIds`) are carried over. */
function storedEntries(staticData: IDataObject, now: number): RememberedDelivery[] {
	const stored = Array.isArray(staticData.deliveryLog) ? (staticData.deliveryLog as unknown[]) : [];
	const entries = stored.filter(isRemembered);
	if (Array.isArray(staticData.seenDeliveryIds)) {
		const legacy = (staticData.seenDeliveryIds as unknown[]).filter((id): id is string => typeof id === 'string');
		entries.unshift(...legacy.map((id) => ({ id, digest: '', until: now + MIN_RETENTION_MS })));
	}
	return entries;
}

/** Legacy entries have no digest; they are told apart by id. */
function keyOf(entry: RememberedDelivery): string {
	return entry.digest === '' ? `id:${entry.id}` : entry.digest;
}

/**
 * What this process knows of one trigger's deliveries. n8n gives each webhook request its own copy of the static
 * data, read when the request arrives and written back whole when it is answered, so requests that overlap cannot
 * see each other's entries in it, and the last write wins (docs/triggers.md, "Bursts"). The check and the record are
 * therefore made here, in one synchronous step per process, on one log per trigger that every request's copy of the
 * static data then points to: whichever copy n8n writes back last holds every delivery this process knew of by then.
 */
interface TriggerLog {
	/** Entries in force, each digest once, soonest to expire first (which follows arrival: one retention per trigger). */
	entries: RememberedDelivery[];
	keys: Set<string>;
	/** How many entries carry each delivery id (a retry adds its own digest under the same id). */
	ids: Map<string, number>;
}

const triggerLogs = new Map<string, TriggerLog>();

const emptyLog = (): TriggerLog => ({ entries: [], keys: new Set(), ids: new Map() });

function triggerLogOf(trigger: string | undefined, now: number): TriggerLog {
	if (trigger === undefined) return emptyLog();
	// Forget triggers with nothing left in force (a deactivated workflow's), so the map stays bounded.
	for (const [key, log] of triggerLogs) {
		if (key !== trigger && (log.entries.at(-1)?.until ?? -Infinity) < now) triggerLogs.delete(key);
	}
	let log = triggerLogs.get(trigger);
	if (!log) {
		log = emptyLog();
		triggerLogs.set(trigger, log);
	}
	return log;
}

function add(log: TriggerLog, entry: RememberedDelivery, now: number): void {
	const key = keyOf(entry);
	if (entry.until < now || log.keys.has(key)) return;
	log.keys.add(key);
	if (entry.id !== undefined) log.ids.set(entry.id, (log.ids.get(entry.id) ?? 0) + 1);
	let at = log.entries.length;
	while (at > 0 && log.entries[at - 1].until > entry.until) at--;
	log.entries.splice(at, 0, entry);
}

function dropOldest(log: TriggerLog, count: number): void {
	for (const entry of log.entries.splice(0, count)) {
		log.keys.delete(keyOf(entry));
		if (entry.id === undefined) continue;
		const left = (log.ids.get(entry.id) ?? 1) - 1;
		if (left > 0) log.ids.set(entry.id, left);
		else log.ids.delete(entry.id);
	}
}

/**
 * Drops expired entries; then, beyond REMEMBERED_DELIVERIES, the oldest that can no longer be replayed (their Date
 * window is over); and beyond MAX_REMEMBERED_DELIVERIES the oldest whatever they are.
 */
function prune(log: TriggerLog, now: number): void {
	let drop = 0;
	while (drop < log.entries.length && log.entries[drop].until < now) drop++;
	while (log.entries.length - drop > REMEMBERED_DELIVERIES && (log.entries[drop].replayableUntil ?? 0) < now) drop++;
	drop = Math.max(drop, log.entries.length - MAX_REMEMBERED_DELIVERIES);
	if (drop > 0) dropOldest(log, drop);
}

export interface RememberOptions {
	now?: number;
	/**
	 * Identifies the trigger in this process (workflow and node): deliveries accepted by any request to it are known
	 * to every later one. Without it only the static data is consulted.
	 */
	trigger?: string;
}

/**
 * Records a delivery in the node's static data (saved by n8n with the workflow, so it survives restarts and is read
 * by every n8n process) and in this process's log of the trigger. Returns false when its id or its signed content
 * was seen before: AWeber's retry (same id, new Date and signature) or a replay (same Date and signature, any id or
 * none). A retry's new digest is kept too, so a captured retry cannot be replayed under another id; a replay adds
 * nothing, so replays cannot push genuine entries out.
 */
export function rememberDelivery(staticData: IDataObject, delivery: DeliveryFingerprint, options: RememberOptions = {}): boolean {
	const now = options.now ?? Date.now();
	const log = triggerLogOf(options.trigger, now);
	// What other processes (or this one before a restart) saved comes in with this request's copy.
	if (staticData.deliveryLog !== log.entries) for (const stored of storedEntries(staticData, now)) add(log, stored, now);
	prune(log, now);
	const digestSeen = log.keys.has(delivery.digest);
	const idSeen = delivery.id !== undefined && log.ids.has(delivery.id);
	if (!digestSeen) {
		add(log, { ...(delivery.id === undefined ? {} : { id: delivery.id }), digest: delivery.digest, until: delivery.until, ...(delivery.replayableUntil === undefined ? {} : { replayableUntil: delivery.replayableUntil }) }, now);
		prune(log, now);
	}
	// The same array for every copy: each copy n8n writes back holds the log as it is at that moment.
	staticData.deliveryLog = log.entries;
	delete staticData.seenDeliveryIds;
	return !digestSeen && !idSeen;
}
