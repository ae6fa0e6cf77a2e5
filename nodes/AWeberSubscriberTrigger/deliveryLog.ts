import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

/**
 * Deliveries are remembered at least this long: AWeber does not document how long it retries a delivery
 * (docs/aweber-behaviour.md#webhook-retries; the sandbox retries after 30, 60 and 120 s), and a retry is only
 * recognised by its unchanged AWeber-Delivery-ID. An hour is the horizon the package assumes.
 */
export const MIN_RETENTION_MS = 60 * 60_000;

/**
 * The ceiling of the delivery log in the workflow's static data, in bytes of JSON. n8n writes the static data back
 * whole with every accepted delivery, so it is kept to 2 MB: 60,606 deliveries (`MAX_REMEMBERED_DELIVERIES`), an
 * hour at 16 deliveries a second without pause. Past it the oldest are forgotten first, and the log says so
 * (docs/triggers.md#each-delivery-runs-once).
 */
export const MAX_LOG_BYTES = 2_000_000;

/**
 * Bytes of one stored entry at most: its expiry (whole seconds, base 36: 6 characters until the year 2059), the
 * digests of its id and of its signed content (11 characters each), two separators, and JSON's quotes and comma.
 */
export const ENTRY_BYTES = 6 + 1 + 11 + 1 + 11 + 3;

/** How many deliveries the log holds at most. */
export const MAX_REMEMBERED_DELIVERIES = Math.floor(MAX_LOG_BYTES / ENTRY_BYTES);

/** One accepted delivery, as the webhook hands it over. */
export interface DeliveryFingerprint {
	/** The AWeber-Delivery-ID header, when there was one. */
	id?: string;
	/** SHA-256 (hex) of what the signature covers (Date and body): a replay carries the same, whatever its id header says. */
	digest: string;
	/** Epoch ms after which the entry is dropped (at least MIN_RETENTION_MS, and past the copy's Date window). */
	until: number;
}

/**
 * 64 bits of SHA-256 of a value, as 11 characters: among the 60,606 entries the log holds at most, two different
 * deliveries share one with a chance below 1 in 10^10, and a delivery taken for another's copy is what that would cost.
 */
const SHORT_DIGEST_BYTES = 8;
const shortDigest = (value: string) => createHash('sha256').update(value).digest().subarray(0, SHORT_DIGEST_BYTES).toString('base64url');

/** One stored entry: `<expiry, s, base 36>:<id digest or empty>:<content digest, or empty for an id kept by an earlier version>`. */
function encode(delivery: DeliveryFingerprint): string {
	const content = delivery.digest === '' ? '' : shortDigest(delivery.digest);
	return `${Math.ceil(delivery.until / 1000).toString(36)}:${delivery.id === undefined ? '' : shortDigest(delivery.id)}:${content}`;
}

const ENTRY = /^([0-9a-z]{1,9}):([\w-]{0,11}):([\w-]{0,11})$/;

interface Entry {
	text: string;
	until: number;
	id: string;
	/** The content digest, or `id:<id digest>` for an id kept by an earlier version. */
	key: string;
}

function parse(text: string): Entry | undefined {
	const match = ENTRY.exec(text);
	if (match === null || (match[2] === '' && match[3] === '')) return undefined;
	return { text, until: parseInt(match[1], 36) * 1000, id: match[2], key: match[3] === '' ? `id:${match[2]}` : match[3] };
}

/** What an earlier version stored (objects with the full id and digest, or bare ids), in today's form. */
function legacyEntry(stored: unknown, now: number): string | undefined {
	if (typeof stored === 'string') return stored;
	const candidate = stored as Partial<DeliveryFingerprint> | null | undefined;
	if (typeof candidate?.digest !== 'string' || typeof candidate.until !== 'number') return undefined;
	if (candidate.id !== undefined && typeof candidate.id !== 'string') return undefined;
	return encode({ id: candidate.id, digest: /^[0-9a-f]{64}$/.test(candidate.digest) ? candidate.digest : '', until: Math.min(candidate.until, now + MIN_RETENTION_MS * 24) });
}

/** The stored entries; ids saved by earlier versions (`seenDeliveryIds`) are carried over for an hour. */
function storedEntries(staticData: IDataObject, now: number): string[] {
	const stored = Array.isArray(staticData.deliveryLog) ? (staticData.deliveryLog as unknown[]) : [];
	const entries = stored.map((entry) => legacyEntry(entry, now)).filter((entry): entry is string => entry !== undefined);
	if (Array.isArray(staticData.seenDeliveryIds)) {
		const legacy = (staticData.seenDeliveryIds as unknown[]).filter((id): id is string => typeof id === 'string');
		entries.unshift(...legacy.map((id) => encode({ id, digest: '', until: now + MIN_RETENTION_MS })));
	}
	return entries;
}

/**
 * What this process knows of one trigger's deliveries. n8n gives each webhook request its own copy of the static
 * data, read when the request arrives and written back whole when it is answered, so requests that overlap cannot
 * see each other's entries in it, and the last write wins (docs/triggers.md, "Bursts"). The check and the record are
 * therefore made here, in one synchronous step per process, on one log per trigger that every request's copy of the
 * static data then points to: whichever copy n8n writes back last holds every delivery this process knew of by then.
 */
interface TriggerLog {
	/** Entries in force (stored form), each content digest once, soonest to expire first. */
	entries: string[];
	/** The expiry of each entry, in the same order. */
	untils: number[];
	texts: Set<string>;
	keys: Set<string>;
	/** How many entries carry each delivery id digest (a retry adds its own content digest under the same id). */
	ids: Map<string, number>;
}

const triggerLogs = new Map<string, TriggerLog>();

const emptyLog = (): TriggerLog => ({ entries: [], untils: [], texts: new Set(), keys: new Set(), ids: new Map() });

function triggerLogOf(trigger: string | undefined, now: number): TriggerLog {
	if (trigger === undefined) return emptyLog();
	// Forget triggers with nothing left in force (a deactivated workflow's), so the map stays bounded.
	for (const [key, log] of triggerLogs) {
		if (key !== trigger && (log.untils.at(-1) ?? -Infinity) < now) triggerLogs.delete(key);
	}
	let log = triggerLogs.get(trigger);
	if (!log) {
		log = emptyLog();
		triggerLogs.set(trigger, log);
	}
	return log;
}

function add(log: TriggerLog, text: string, now: number): void {
	if (log.texts.has(text)) return;
	const entry = parse(text);
	if (entry === undefined || entry.until < now || log.keys.has(entry.key)) return;
	log.texts.add(text);
	log.keys.add(entry.key);
	if (entry.id !== '') log.ids.set(entry.id, (log.ids.get(entry.id) ?? 0) + 1);
	let at = log.entries.length;
	while (at > 0 && log.untils[at - 1] > entry.until) at--;
	log.entries.splice(at, 0, text);
	log.untils.splice(at, 0, entry.until);
}

function dropOldest(log: TriggerLog, count: number): void {
	log.untils.splice(0, count);
	for (const text of log.entries.splice(0, count)) {
		const entry = parse(text)!;
		log.texts.delete(text);
		log.keys.delete(entry.key);
		if (entry.id === '') continue;
		const left = (log.ids.get(entry.id) ?? 1) - 1;
		if (left > 0) log.ids.set(entry.id, left);
		else log.ids.delete(entry.id);
	}
}

/** Drops expired entries, then the oldest beyond MAX_REMEMBERED_DELIVERIES; returns how many were dropped early. */
function prune(log: TriggerLog, now: number): number {
	let expired = 0;
	while (expired < log.untils.length && log.untils[expired] < now) expired++;
	const early = Math.max(0, log.entries.length - expired - MAX_REMEMBERED_DELIVERIES);
	if (expired + early > 0) dropOldest(log, expired + early);
	return early;
}

export interface RememberOptions {
	now?: number;
	/**
	 * Identifies the trigger in this process (workflow and node): deliveries accepted by any request to it are known
	 * to every later one. Without it only the static data is consulted.
	 */
	trigger?: string;
	/** Told when the log is full and deliveries still within their retention were forgotten (how many). */
	onForgotten?: (count: number) => void;
}

/**
 * Records a delivery in the node's static data (saved by n8n with the workflow, so it survives restarts and is read
 * by every n8n process) and in this process's log of the trigger. Returns false when its id or its signed content
 * was seen before: AWeber's retry (same id, new Date and signature) or a replay (same Date and signature, any id or
 * none). A retry's new digest is kept too, so a captured retry cannot be replayed under another id; a replay adds
 * nothing, so replays cannot push genuine entries out. Every entry is kept until its time is up (an hour at least),
 * whatever the rate, up to MAX_LOG_BYTES.
 */
export function rememberDelivery(staticData: IDataObject, delivery: DeliveryFingerprint, options: RememberOptions = {}): boolean {
	const now = options.now ?? Date.now();
	const log = triggerLogOf(options.trigger, now);
	// What other processes (or this one before a restart) saved comes in with this request's copy.
	if (staticData.deliveryLog !== log.entries) for (const stored of storedEntries(staticData, now)) add(log, stored, now);
	let forgotten = prune(log, now);
	const digestSeen = log.keys.has(shortDigest(delivery.digest));
	const idSeen = delivery.id !== undefined && log.ids.has(shortDigest(delivery.id));
	if (!digestSeen) {
		add(log, encode(delivery), now);
		forgotten += prune(log, now);
	}
	if (forgotten > 0) options.onForgotten?.(forgotten);
	// The same array for every copy: each copy n8n writes back holds the log as it is at that moment.
	staticData.deliveryLog = log.entries;
	delete staticData.seenDeliveryIds;
	return !digestSeen && !idSeen;
}
