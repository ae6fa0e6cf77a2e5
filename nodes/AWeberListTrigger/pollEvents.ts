import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { AWEBER_MAX_PAGE_SIZE } from '../shared/constants';
import { checkPathParameter } from '../shared/pathParameters';
import { collectNewEvents, cursorAtNewest, type EventCursor } from './eventCursor';
import { EVENT_STREAMS, streamPages, type PollEvent } from './streams';

export const DEFAULT_MAX_EVENTS_PER_POLL = 1000;

/** The account or list ID, checked as the nodes' IDs are (pathParameters.ts) before it goes into a request path. */
function numericId(context: IPollFunctions, name: 'accountId' | 'listId'): string {
	return checkPathParameter(context.getNode(), name, context.getNodeParameter(name, '', { extractValue: true }));
}

function isCursor(value: unknown): value is EventCursor {
	const cursor = value as EventCursor | undefined;
	return (
		typeof cursor === 'object' &&
		cursor !== null &&
		(cursor.time === null || typeof cursor.time === 'number') &&
		Array.isArray(cursor.ids)
	);
}

/**
 * The AWeber Poll Trigger's poll. The node's static data keeps a cursor per stream (event, account, list):
 * the first poll after activation only places it at the newest event; each later poll emits what is newer,
 * oldest first, bounded per poll, and moves the cursor past exactly what it emitted. A manual run returns
 * the newest event as sample data and leaves the cursor alone.
 */
export async function pollAweberEvents(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const event = this.getNodeParameter('event') as PollEvent;
	const accountId = numericId(this, 'accountId');
	const listId = numericId(this, 'listId');
	const fetchPage = streamPages(this, EVENT_STREAMS[event], accountId, listId);

	if (this.getMode() === 'manual') {
		const { events } = await fetchPage(0, 1);
		return events.length > 0 ? [[{ json: events[0].json }]] : null;
	}

	const staticData = this.getWorkflowStaticData('node');
	const stream = `${event}:${accountId}:${listId}`;
	if (staticData.stream !== stream || !isCursor(staticData.cursor)) {
		staticData.stream = stream;
		staticData.cursor = cursorAtNewest(await fetchPage(0, AWEBER_MAX_PAGE_SIZE)) as unknown as IDataObject;
		return null;
	}

	const maxEvents = Math.max(1, Math.floor(Number(this.getNodeParameter('options.maxEventsPerPoll', DEFAULT_MAX_EVENTS_PER_POLL))));
	// n8n abandons a poll that outlives its budget; stop fetching at half of it and retry from the same cursor.
	// n8n 1.x has no poll budget (getPollBudgetMs came with 2.x): there the poll is bounded by Max Events only.
	const { getPollBudgetMs } = this as { getPollBudgetMs?: () => number | undefined };
	const budgetMs = typeof getPollBudgetMs === 'function' ? getPollBudgetMs.call(this) : undefined;
	const startedAt = Date.now();
	const stored = staticData.cursor;
	const { events, cursor } = await collectNewEvents(fetchPage, stored, {
		pageSize: AWEBER_MAX_PAGE_SIZE,
		maxEvents,
		outOfTime: () => budgetMs !== undefined && Date.now() - startedAt >= budgetMs / 2,
		onFutureCursor: (storedTime, now) =>
			this.logger.warn(
				`AWeber Poll Trigger: the stored position ${new Date(storedTime).toISOString()} is ahead of AWeber's clock (${new Date(now).toISOString()}); watching again from AWeber's now`,
				{ node: this.getNode().name },
			),
	});
	// Only a moved cursor is written, so idle polls do not make n8n save the workflow's static data.
	if (cursor !== stored) staticData.cursor = cursor as unknown as IDataObject;
	if (events.length === 0) return null;
	return [events.map((found) => ({ json: found.json }))];
}
