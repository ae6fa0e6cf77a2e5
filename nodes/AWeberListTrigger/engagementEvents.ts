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
 * under `engagement`, one position per watched broadcast: {stream, broadcasts: {id: {subject, time, keys}}}. Only
 * broadcasts still watched are kept (those leaving the window are forgotten), so it stays bounded.
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

interface EngagementState {
	stream: string;
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

	// The chosen broadcast's subject is read once and kept; the window is looked up on every poll (a broadcast sent
	// since the last poll is watched from its first open).
	const watched: SentBroadcast[] =
		chosenId === undefined
			? await sentWithinWindow(context, listPath, windowDays)
			: [stored?.broadcasts[chosenId] ? { id: chosenId, subject: stored.broadcasts[chosenId].subject } : await chosenBroadcast(context, listPath, chosenId)];

	if (context.getMode() === 'manual') {
		for (const broadcast of watched) {
			const { events } = await readEngagements(context, engagementPath(accountId, listId, broadcast.id, event), event, 'newest', 1);
			const newest = events.at(-1);
			if (newest !== undefined) return [[engagementItem(event, broadcast, newest)]];
		}
		return null;
	}

	const next: EngagementState = { stream, broadcasts: {} };
	const items: INodeExecutionData[] = [];
	let changed = stored === undefined;
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
	// Only a moved position is written, so idle polls do not make n8n save the workflow's static data.
	if (changed) staticData.engagement = next as unknown as IDataObject;
	if (stored === undefined || items.length === 0) return null;
	// Oldest first across the broadcasts, as the other events are emitted.
	const timeOf = (item: INodeExecutionData) => engagementTime(item.json) ?? 0;
	return [items.sort((a, b) => timeOf(a) - timeOf(b))];
}
