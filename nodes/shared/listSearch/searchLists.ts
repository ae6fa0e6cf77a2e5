import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { aweberGet } from '../transport';
import { accountIdForSearch } from './accountIdForSearch';

interface ListEntry {
	id: number;
	name: string;
	self_link: string;
}

interface CollectionPage<T> {
	entries: T[];
	next_collection_link?: string;
}

/** Lists of the chosen account; typing filters with AWeber's `find` by name or unique list id. */
export async function searchLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const accountId = await accountIdForSearch(this);
	const page = paginationToken
		? await aweberGet<CollectionPage<ListEntry>>(this, paginationToken)
		: await aweberGet<CollectionPage<ListEntry>>(
				this,
				`/accounts/${accountId}/lists`,
				filter ? { 'ws.op': 'find', name: filter, 'ws.size': 100 } : { 'ws.size': 100 },
			);
	return {
		results: page.entries.map((list) => ({ name: list.name, value: String(list.id), url: list.self_link })),
		paginationToken: page.next_collection_link,
	};
}
