import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { readCollectionPage } from '../collections';

type SearchResult = INodeListSearchResult['results'][number];

/** Where a picker's next page link comes from: the editor sends it back as it likes, so it is checked like any link. */
export const PAGINATION_TOKEN_SOURCE = 'the pagination token sent by the editor';

/**
 * One page of an AWeber collection as picker results. AWeber has no name search on these collections,
 * so typing filters each page here; the next page is fetched through `next_collection_link` when the
 * user scrolls.
 */
export async function searchCollectionPage<T>(
	context: ILoadOptionsFunctions,
	options: {
		/** Path of the collection under /1.0; only built (and its parents checked) for the first page. */
		path: () => Promise<string> | string;
		toResult: (entry: T) => SearchResult;
		filter?: string;
		paginationToken?: string;
		qs?: Record<string, string | number>;
	},
): Promise<INodeListSearchResult> {
	const page = options.paginationToken
		? await readCollectionPage<T>(context, options.paginationToken, { source: PAGINATION_TOKEN_SOURCE })
		: await readCollectionPage<T>(context, await options.path(), { qs: options.qs });
	return {
		results: filterResults(page.entries.map(options.toResult), options.filter),
		paginationToken: page.next_collection_link,
	};
}

/** Keeps results whose name contains the typed text, or whose ID is the typed text. */
export function filterResults(results: SearchResult[], filter?: string): SearchResult[] {
	const needle = filter?.trim().toLowerCase();
	if (!needle) return results;
	return results.filter((result) => result.name.toLowerCase().includes(needle) || String(result.value).toLowerCase() === needle);
}
