import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listPathForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

interface SplitTestEntry {
	id: number;
	name: string;
	is_active?: boolean;
	self_link: string;
}

/** Web form split tests of the chosen list. */
export async function searchSplitTests(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollectionPage<SplitTestEntry>(this, {
		path: async () => `${await listPathForSearch(this)}/web_form_split_tests`,
		toResult: (test) => ({
			name: test.is_active === false ? `${test.name} (inactive)` : test.name,
			value: String(test.id),
		}),
		filter,
		paginationToken,
	});
}
