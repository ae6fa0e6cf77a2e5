import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { openablePage } from './pageLink';
import { listPathForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

interface LandingPageEntry {
	id: string;
	name: string;
	status?: string;
	/** The published page's address; none while a draft. */
	published_url?: string | null;
	self_link: string;
}

/** Landing pages of the chosen list. */
export async function searchLandingPages(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollectionPage<LandingPageEntry>(this, {
		path: async () => `${await listPathForSearch(this)}/landing_pages`,
		toResult: (page) => ({
			name: page.status ? `${page.name} (${page.status})` : page.name,
			value: page.id,
			url: openablePage(page.published_url, page.self_link),
		}),
		filter,
		paginationToken,
	});
}
