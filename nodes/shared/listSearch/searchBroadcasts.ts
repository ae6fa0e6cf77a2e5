import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { CollectionPage } from '../answers';
import { readCollectionPage } from '../collections';
import { openablePage } from './pageLink';
import { listPathForSearch } from './parentIdForSearch';
import { filterResults, PAGINATION_TOKEN_SOURCE } from './searchCollectionPage';

interface BroadcastEntry {
	broadcast_id: number;
	subject?: string;
	status?: string;
	scheduled_for?: string | null;
	sent_at?: string | null;
	/** The sent broadcast's public archive page (none unless sent and archived). */
	archive_url?: string | null;
	self_link: string;
}

type BroadcastStatus = 'draft' | 'scheduled' | 'sent';

/** AWeber lists broadcasts one status at a time; offer the ones the chosen operation can act on. */
const STATUSES_FOR_OPERATION: Record<string, BroadcastStatus[]> = {
	update: ['draft'],
	delete: ['draft'],
	schedule: ['draft'],
	cancel: ['scheduled'],
	getStatistics: ['sent'],
	getStatistic: ['sent'],
	getOpens: ['sent'],
	getLinkReport: ['sent'],
	getClicks: ['sent'],
};
const ALL_STATUSES: BroadcastStatus[] = ['draft', 'scheduled', 'sent'];
const NEXT_STATUS_TOKEN = 'status:';

function statusesForSearch(context: ILoadOptionsFunctions): BroadcastStatus[] {
	let operation: unknown;
	try {
		operation = context.getNodeParameter('operation');
	} catch {
		// No operation (n8n throws for a missing parameter): left undefined, so any status will do.
	}
	return STATUSES_FOR_OPERATION[String(operation)] ?? ALL_STATUSES;
}

/**
 * Broadcasts of the chosen list. Pages go status by status: the pagination token is AWeber's next page
 * link, or `status:<next status>` once a status is exhausted.
 */
export async function searchBroadcasts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const statuses = statusesForSearch(this);
	let page: CollectionPage<BroadcastEntry>;
	let status: BroadcastStatus;
	if (paginationToken && !paginationToken.startsWith(NEXT_STATUS_TOKEN)) {
		page = await readCollectionPage<BroadcastEntry>(this, paginationToken, { source: PAGINATION_TOKEN_SOURCE });
		status = (new URL(paginationToken).searchParams.get('status') as BroadcastStatus | null) ?? statuses[0];
	} else {
		const asked = paginationToken?.slice(NEXT_STATUS_TOKEN.length) as BroadcastStatus | undefined;
		status = ALL_STATUSES.find((candidate) => candidate === asked) ?? statuses[0];
		page = await readCollectionPage<BroadcastEntry>(this, `${await listPathForSearch(this)}/broadcasts`, { qs: { status } });
	}
	const nextStatus = statuses[statuses.indexOf(status) + 1];
	const results = page.entries.map((broadcast) => ({
		name: broadcastName(broadcast, status),
		value: String(broadcast.broadcast_id),
		url: openablePage(broadcast.archive_url, broadcast.self_link),
	}));
	return {
		results: filterResults(results, filter),
		paginationToken: page.next_collection_link ?? (nextStatus ? `${NEXT_STATUS_TOKEN}${nextStatus}` : undefined),
	};
}

function broadcastName(broadcast: BroadcastEntry, status: string): string {
	const when = broadcast.sent_at ?? broadcast.scheduled_for;
	return `${broadcast.subject || '(no subject)'} (${broadcast.status ?? status}${when ? ` ${when.slice(0, 16)}` : ''})`;
}
