import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { aweberGet } from '../transport';
import { accountIdForSearch } from './accountIdForSearch';
import { listIdForSearch, parentIdForSearch } from './parentIdForSearch';

interface MessageEntry {
	id: number;
	event_time?: string;
	total_opens?: number;
	self_link: string;
}

/** Messages (one per recipient) of the chosen campaign. */
export async function searchMessages(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken
		? await aweberGet<{ entries: MessageEntry[]; next_collection_link?: string }>(this, paginationToken)
		: await aweberGet<{ entries: MessageEntry[]; next_collection_link?: string }>(
				this,
				`/accounts/${await accountIdForSearch(this)}/lists/${listIdForSearch(this)}/campaigns/${encodeURIComponent(
					parentIdForSearch(this, 'campaignId', 'campaign'),
				)}/messages`,
				{ 'ws.size': 100 },
			);
	const needle = filter?.toLowerCase();
	const results = page.entries
		.map((message) => ({
			name: `Message ${message.id}${message.event_time ? ` sent ${message.event_time}` : ''}${
				message.total_opens ? ` (${message.total_opens} opens)` : ''
			}`,
			value: String(message.id),
			url: message.self_link,
		}))
		.filter((result) => !needle || result.name.toLowerCase().includes(needle));
	return { results, paginationToken: page.next_collection_link };
}
