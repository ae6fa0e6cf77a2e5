import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listPathForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

interface SubscriberEntry {
	id: number;
	email: string;
	name?: string | null;
	status?: string;
	self_link: string;
}

/**
 * Subscribers of the chosen list, newest first. AWeber searches only exact values, so a typed address
 * is looked up with `find`; other text filters the pages shown.
 */
export async function searchSubscribers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const typedEmail = filter?.includes('@') ? filter.trim() : undefined;
	return await searchCollectionPage<SubscriberEntry>(this, {
		path: async () => `${await listPathForSearch(this)}/subscribers`,
		qs: typedEmail ? { 'ws.op': 'find', email: typedEmail } : { sort_order: 'desc' },
		toResult: (subscriber) => ({
			name: `${subscriber.name ? `${subscriber.name} <${subscriber.email}>` : subscriber.email}${
				subscriber.status && subscriber.status !== 'subscribed' ? ` (${subscriber.status})` : ''
			}`,
			value: String(subscriber.id),
		}),
		filter,
		paginationToken,
	});
}
