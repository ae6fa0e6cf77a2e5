import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { parseAweberTime } from '../shared/aweberTime';
import { NEXT_PAGE_SOURCE, readCollectionPageAt } from '../shared/collections';
import { checkPathParameter } from '../shared/pathParameters';
import { aweberGet } from '../shared/transport';
import {
	advancePosition,
	engagementPath,
	engagementTime,
	readEngagements,
	type Engagement,
	type EngagementEvent,
	type EngagementPosition,
} from './engagementReads';

/*
 * Broadcast Opened and Link Clicked (docs/triggers.md#broadcast-opened-and-link-clicked). The node's static data keeps,
 * under `engagement`, one position per watched broadcast and the turn skipped last:
 * {stream, skipped, broadcasts: {id: {subject, time, keys}}}. Only broadcasts still watched are kept (those leaving
 * the window are forgotten), so it stays bounded.
 *
 * Turns (window scope): the window look-up and the N watched broadcasts' reads are N + 1 turns, and each poll after
 * the first skips one of them in rotation, so an idle poll costs N calls (1 when none is watched: the look-up alone).
 * A skipped read loses nothing (reads go by the stored position): its events come one poll later.
 */

export const ENGAGEMENT_EVENTS: readonly string[] = ['broadcastOpened', 'linkClicked'];

export function isEngagementEvent(event: unknown): event is EngagementEvent {
	return ENGAGEMENT_EVENTS.includes(String(event));
}

/** Days back a sent broadcast is watched by default: most opens and clicks come in a broadcast's first few days. */
export const DEFAULT_WINDOW_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The same default as the other events' Max Events per Poll (pollEvents.ts, not imported: it imports this file). */
const DEFAULT_MAX_EVENTS = 1000;

interface WatchedBroadcast extends EngagementPosition {
	subject: string;
}

/** The window look-up's turn, in `skipped` beside the broadcasts' IDs. */
const LOOKUP_TURN = 'window';

interface EngagementState {
	stream: string;
	/** The turn the last poll skipped: a broadcast's ID or LOOKUP_TURN (absent before the first skip). */
	skipped?: string;
	broadcasts: Record<string, WatchedBroadcast>;
}

interface SentBroadcast {
	id: string;
	subject: string;
}

function isWatched(value: unknown): value is WatchedBroadcast {
	const watched = value as WatchedBroadcast | undefined;
	return (
		typeof watched === 'object' &&
		watched !== null &&
		typeof watched.subject === 'string' &&
		(watched.time === null || Number.isFinite(watched.time)) &&
		Array.isArray(watched.keys) &&
		watched.keys.every((key) => typeof key === 'string')
	);
}

function storedState(value: unknown, stream: string): EngagementState | undefined {
	const state = value as EngagementState | undefined;
	if (typeof state !== 'object' || state === null || state.stream !== stream) return undefined;
	if (typeof state.broadcasts !== 'object' || state.broadcasts === null) return undefined;
	if (state.skipped !== undefined && typeof state.skipped !== 'string') return undefined;
	return Object.values(state.broadcasts).every(isWatched) ? state : undefined;
}

/**
 * The list's broadcasts sent within the window, newest first: AWeber lists sent broadcasts by sent_at, newest first
 * (broadcasts still sending among them), so one page holds them unless more than 100 were sent within the window.
 */
async function sentWithinWindow(context: IPollFunctions, listPath: string, windowDays: number): Promise<SentBroadcast[]> {
	const found: SentBroadcast[] = [];
	const first = await readCollectionPageAt(context, `${listPath}/broadcasts`, { qs: { status: 'sent' } });
	let page = first.page;
	// The window is measured on AWeber's clock (its answer's Date), which dates sent_at.
	const since = first.answeredAt - windowDays * DAY_MS;
	for (;;) {
		for (const entry of page.entries) {
			const sentAt = parseAweberTime(entry.sent_at);
			if (sentAt === undefined) continue;
			if (sentAt < since) return found;
			found.push({ id: String(entry.broadcast_id), subject: String(entry.subject ?? '') });
		}
		if (!page.next_collection_link || page.entries.length === 0) return found;
		({ page } = await readCollectionPageAt(context, page.next_collection_link, { source: NEXT_PAGE_SOURCE }));
	}
}

/** Turns in rotation order: broadcasts by ID (AWeber's IDs grow with creation), then the window look-up. */
function turnOrder(turn: string): number {
	return turn === LOOKUP_TURN ? Number.POSITIVE_INFINITY : Number(turn);
}

/** The turn after `skipped` among `turns`, wrapping round: each turn is skipped once per round, never twice running. */
function nextTurn(turns: string[], skipped: string | undefined): string | undefined {
	const ordered = [...turns].sort((a, b) => turnOrder(a) - turnOrder(b));
	if (skipped === undefined) return ordered[0];
	return ordered.find((turn) => turnOrder(turn) > turnOrder(skipped)) ?? ordered[0];
}

/**
 * The broadcasts this poll reads and the turn it skips. The first poll reads all (watching begins) and a poll with no
 * broadcast watched looks the window up; otherwise the turn after the last skipped one is skipped: the look-up (the
 * stored broadcasts are read) or one broadcast (the look-up is made; if that broadcast left the window, the next
 * broadcast of the window is skipped instead, so a poll never costs more calls than the window has broadcasts).
 */
async function plan(
	context: IPollFunctions,
	listPath: string,
	windowDays: number,
	stored: EngagementState | undefined,
): Promise<{ read: SentBroadcast[]; skipped?: string; waiting?: SentBroadcast }> {
	if (stored === undefined) return { read: await sentWithinWindow(context, listPath, windowDays) };
	const storedIds = Object.keys(stored.broadcasts);
	const turn = storedIds.length === 0 ? undefined : nextTurn([...storedIds, LOOKUP_TURN], stored.skipped);
	if (turn === LOOKUP_TURN) {
		return { read: storedIds.map((id) => ({ id, subject: stored.broadcasts[id].subject })), skipped: LOOKUP_TURN };
	}
	const window = await sentWithinWindow(context, listPath, windowDays);
	const ids = window.map((broadcast) => broadcast.id);
	const skipped = turn !== undefined && ids.includes(turn) ? turn : nextTurn(ids, turn);
	return {
		read: window.filter((broadcast) => broadcast.id !== skipped),
		skipped,
		waiting: window.find((broadcast) => broadcast.id === skipped),
	};
}

/** The one chosen broadcast, with its subject for the items (read once, when watching begins). */
async function chosenBroadcast(context: IPollFunctions, listPath: string, broadcastId: string): Promise<SentBroadcast> {
	const entry = await aweberGet(context, `${listPath}/broadcasts/${broadcastId}`);
	return { id: broadcastId, subject: String(entry.subject ?? '') };
}

/** The item of one open or click: the broadcast, the subscriber (email and link), the time and, for a click, the URL. */
function engagementItem(event: EngagementEvent, broadcast: SentBroadcast, found: Engagement): INodeExecutionData {
	const { entry } = found;
	const json: IDataObject = {
		event,
		broadcast_id: Number(broadcast.id),
		broadcast_subject: broadcast.subject,
		email: entry.email ?? null,
		subscriber_link: entry.subscriber_link ?? null,
		event_time: entry.clicked_at ?? entry.event_time ?? null,
	};
	if (event === 'linkClicked') json.url = entry.url ?? null;
	return { json };
}

/** The Polling Trigger's poll for Broadcast Opened and Link Clicked. */
export async function pollEngagementEvents(
	context: IPollFunctions,
	event: EngagementEvent,
	accountId: string,
	listId: string,
): Promise<INodeExecutionData[][] | null> {
	const listPath = `/accounts/${accountId}/lists/${listId}`;
	const maxEvents = Math.max(1, Math.floor(Number(context.getNodeParameter('options.maxEventsPerPoll', DEFAULT_MAX_EVENTS))));
	const scope = context.getNodeParameter('broadcastScope', 'window') as string;
	const chosenId =
		scope === 'chosen' ? checkPathParameter(context.getNode(), 'broadcastId', context.getNodeParameter('broadcastId', '', { extractValue: true })) : undefined;
	const windowDays = Math.max(0, Number(context.getNodeParameter('windowDays', DEFAULT_WINDOW_DAYS)));
	const stream = `${event}:${accountId}:${listId}:${chosenId === undefined ? `window:${windowDays}` : `broadcast:${chosenId}`}`;
	const staticData = context.getWorkflowStaticData('node');
	const stored = storedState(staticData.engagement, stream);

	// The chosen broadcast's subject is read once and kept. The window is looked up on the turns of plan() (a broadcast
	// sent since the last poll is watched from its first open); Fetch Test Event always looks it up.
	const chosen =
		chosenId === undefined
			? undefined
			: stored?.broadcasts[chosenId]
				? { id: chosenId, subject: stored.broadcasts[chosenId].subject }
				: await chosenBroadcast(context, listPath, chosenId);

	if (context.getMode() === 'manual') {
		const watched = chosen ? [chosen] : await sentWithinWindow(context, listPath, windowDays);
		for (const broadcast of watched) {
			const { events } = await readEngagements(context, engagementPath(accountId, listId, broadcast.id, event), event, 'newest', 1);
			const newest = events.at(-1);
			if (newest !== undefined) return [[engagementItem(event, broadcast, newest)]];
		}
		return null;
	}

	const { read: watched, skipped, waiting } = chosen ? { read: [chosen], skipped: undefined, waiting: undefined } : await plan(context, listPath, windowDays, stored);
	const next: EngagementState = { stream, broadcasts: {} };
	if (skipped !== undefined) next.skipped = skipped;
	// The broadcast whose turn is skipped keeps its position (a new one starts before its first open or click).
	if (waiting !== undefined) {
		const known = stored?.broadcasts[waiting.id];
		next.broadcasts[waiting.id] = { subject: waiting.subject, time: known?.time ?? null, keys: known?.keys ?? [] };
	}
	// The skipped turn moves on every poll, so the position is written on every poll but the chosen broadcast's idle ones.
	let changed = stored === undefined || skipped !== stored.skipped || (waiting !== undefined && stored.broadcasts[waiting.id] === undefined);
	const items: INodeExecutionData[] = [];
	for (const broadcast of watched) {
		const path = engagementPath(accountId, listId, broadcast.id, event);
		const known = stored?.broadcasts[broadcast.id];
		if (stored === undefined) {
			// Watching begins: what each broadcast already has counts as seen, however many share its newest second.
			const start = await readEngagements(context, path, event, 'newest');
			next.broadcasts[broadcast.id] = { subject: broadcast.subject, ...advancePosition({ time: null, keys: [] }, start.events) };
			continue;
		}
		// A broadcast sent since the last poll: every open or click it has is new.
		const position: EngagementPosition = known ?? { time: null, keys: [] };
		if (known === undefined) changed = true;
		const room = maxEvents - items.length;
		if (room <= 0) {
			next.broadcasts[broadcast.id] = { subject: broadcast.subject, time: position.time, keys: position.keys };
			continue;
		}
		const reading = await readEngagements(context, path, event, position);
		let emitted: Engagement[] = [];
		if (!reading.complete) {
			context.logger.warn(`AWeber Polling Trigger: broadcast ${broadcast.id} has more new ${event === 'broadcastOpened' ? 'opens' : 'clicks'} than one poll reads; the next poll reads again`, {
				node: context.getNode().name,
			});
		} else {
			emitted = reading.events.slice(0, room);
		}
		if (emitted.length > 0) changed = true;
		items.push(...emitted.map((found) => engagementItem(event, broadcast, found)));
		next.broadcasts[broadcast.id] = { subject: broadcast.subject, ...advancePosition(position, emitted) };
	}
	// Broadcasts that left the window are forgotten.
	if (stored !== undefined && Object.keys(stored.broadcasts).some((id) => next.broadcasts[id] === undefined)) changed = true;
	// Only a moved position or turn is written: idle polls of one chosen broadcast, or of an empty window, save nothing.
	if (changed) staticData.engagement = next as unknown as IDataObject;
	if (stored === undefined || items.length === 0) return null;
	// Oldest first across the broadcasts, as the other events are emitted.
	const timeOf = (item: INodeExecutionData) => engagementTime(item.json) ?? 0;
	return [items.sort((a, b) => timeOf(a) - timeOf(b))];
}
