import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listPathForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

interface WebFormEntry {
	id: number;
	name: string;
	type?: string;
	self_link: string;
}

/** Sign-up forms of the chosen list. */
export async function searchWebForms(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollectionPage<WebFormEntry>(this, {
		path: async () => `${await listPathForSearch(this)}/web_forms`,
		toResult: (form) => ({
			name: form.type ? `${form.name} (${form.type})` : form.name,
			value: String(form.id),
		}),
		filter,
		paginationToken,
	});
}
