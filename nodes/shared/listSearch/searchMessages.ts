import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listPathForSearch, parentIdForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

interface MessageEntry {
	id: number;
	event_time?: string | null;
	total_opens?: number;
	self_link: string;
}

/** Messages (one per recipient) of the chosen campaign. */
export async function searchMessages(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollectionPage<MessageEntry>(this, {
		path: async () =>
			`${await listPathForSearch(this)}/campaigns/${parentIdForSearch(this, 'campaignId', 'Campaign')}/messages`,
		toResult: (message) => ({
			name: `Message ${message.id}${message.event_time ? ` sent ${message.event_time}` : ''}${
				message.total_opens ? ` (${message.total_opens} ${message.total_opens === 1 ? 'open' : 'opens'})` : ''
			}`,
			value: String(message.id),
		}),
		filter,
		paginationToken,
	});
}
