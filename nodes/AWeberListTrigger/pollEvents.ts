import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { AWEBER_MAX_PAGE_SIZE } from '../shared/constants';
import { checkPathParameter } from '../shared/pathParameters';
import { collectNewEvents, isUsableCursor, startingCursor, type CollectOptions } from './eventCursor';
import { isEngagementEvent, pollEngagementEvents } from './engagementEvents';
import { EVENT_STREAMS, streamPages, type PollEvent } from './streams';

export const DEFAULT_MAX_EVENTS_PER_POLL = 1000;

/** The account or list ID, checked as the nodes' IDs are (pathParameters.ts) before it goes into a request path. */
function numericId(context: IPollFunctions, name: 'accountId' | 'listId'): string {
	return checkPathParameter(context.getNode(), name, context.getNodeParameter(name, '', { extractValue: true }));
}

/**
 * Most pages the first poll reads to cover the newest second at activation: about 9,000 entries in one second (pages
 * overlap by PAGE_OVERLAP), an import far beyond a web form's pace. Past it the cursor holds what was read, and the
 * warning says the rest of that second may fire.
 */
const MAX_START_PAGES = 100;

/**
 * The AWeber Polling Trigger's poll. The node's static data keeps a cursor per stream (event, account, list):
 * the first poll after activation only places it at the newest event; each later poll emits what is newer,
 * oldest first, bounded per poll, and moves the cursor past exactly what it emitted. A manual run returns
 * the newest event as sample data and leaves the cursor alone.
 */
export async function pollAweberEvents(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const event = this.getNodeParameter('event') as PollEvent;
	const accountId = numericId(this, 'accountId');
	const listId = numericId(this, 'listId');
	// Broadcast Opened / Link Clicked keep their own positions (engagementEvents.ts).
	if (isEngagementEvent(event)) return await pollEngagementEvents(this, event, accountId, listId);
	const fetchPage = streamPages(this, EVENT_STREAMS[event], accountId, listId);

	if (this.getMode() === 'manual') {
		const { events } = await fetchPage(0, 1);
		return events.length > 0 ? [[{ json: events[0].json }]] : null;
	}

	const maxEvents = Math.max(1, Math.floor(Number(this.getNodeParameter('options.maxEventsPerPoll', DEFAULT_MAX_EVENTS_PER_POLL))));
	// n8n abandons a poll that outlives its budget; stop fetching at half of it and retry from the same cursor.
	// n8n 1.x has no poll budget (getPollBudgetMs came with 2.x): there the poll is bounded by Max Events only.
	const { getPollBudgetMs } = this as { getPollBudgetMs?: () => number | undefined };
	const budgetMs = typeof getPollBudgetMs === 'function' ? getPollBudgetMs.call(this) : undefined;
	const startedAt = performance.now();
	const warn = (message: string) => this.logger.warn(`AWeber Polling Trigger: ${message}`, { node: this.getNode().name });
	const options: CollectOptions = {
		pageSize: AWEBER_MAX_PAGE_SIZE,
		maxEvents,
		outOfTime: () => budgetMs !== undefined && performance.now() - startedAt >= budgetMs / 2,
		onFutureCursor: (storedTime, now) =>
			warn(`the stored position ${new Date(storedTime).toISOString()} is ahead of AWeber's clock (${new Date(now).toISOString()}); watching again from AWeber's now`),
		onBrokenRead: () => warn('the collection changed under the read more than its page overlap covers; nothing was emitted, the next poll reads again'),
		onLateEntries: (time, count) =>
			warn(`${count} entries dated ${new Date(time).toISOString()} appeared after AWeber's clock had passed that second by a minute; they were not emitted`),
	};

	const staticData = this.getWorkflowStaticData('node');
	const stream = `${event}:${accountId}:${listId}`;
	if (staticData.stream !== stream || !isUsableCursor(staticData.cursor)) {
		if (staticData.stream === stream) warn(`the stored position (${JSON.stringify(staticData.cursor)?.slice(0, 100)}) is not a usable position; watching again from now`);
		const start = await startingCursor(fetchPage, options, MAX_START_PAGES);
		if (start === undefined) return null;
		if (!start.complete) warn(`more than ${MAX_START_PAGES} pages of entries share the newest second at activation; later entries of that second may fire as new`);
		staticData.stream = stream;
		staticData.cursor = start.cursor as unknown as IDataObject;
		return null;
	}

	const stored = staticData.cursor;
	const { events, cursor } = await collectNewEvents(fetchPage, stored, options);
	// Only a moved cursor is written, so idle polls do not make n8n save the workflow's static data.
	if (cursor !== stored) staticData.cursor = cursor as unknown as IDataObject;
	if (events.length === 0) return null;
	return [events.map((found) => ({ json: found.json }))];
}
