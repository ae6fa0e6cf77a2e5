import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listPathForSearch, parentIdForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

interface ComponentEntry {
	id: string;
	name?: string;
	weight?: number;
	self_link: string;
}

/** The web forms taking part in the chosen split test, with their share of displays. */
export async function searchSplitTestComponents(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollectionPage<ComponentEntry>(this, {
		path: async () =>
			`${await listPathForSearch(this)}/web_form_split_tests/${parentIdForSearch(this, 'splitTestId', 'Split Test')}/components`,
		toResult: (component) => ({
			name: `${component.name ?? component.id}${component.weight !== undefined ? ` (${component.weight}%)` : ''}`,
			value: String(component.id),
		}),
		filter,
		paginationToken,
	});
}
