import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { readCollectionPage } from '../collections';
import { accountIdForSearch } from './accountIdForSearch';
import { PAGINATION_TOKEN_SOURCE } from './searchCollectionPage';

interface ListEntry {
	id: number;
	name: string;
	self_link: string;
}

/** Lists of the chosen account; typing filters with AWeber's `find` by name or unique list id. */
export async function searchLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const accountId = await accountIdForSearch(this);
	const page = paginationToken
		? await readCollectionPage<ListEntry>(this, paginationToken, { source: PAGINATION_TOKEN_SOURCE })
		: await readCollectionPage<ListEntry>(this, `/accounts/${accountId}/lists`, { qs: filter ? { 'ws.op': 'find', name: filter } : {} });
	return {
		results: page.entries.map((list) => ({ name: list.name, value: String(list.id) })),
		paginationToken: page.next_collection_link,
	};
}
