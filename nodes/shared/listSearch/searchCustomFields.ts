import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listPathForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

interface CustomFieldEntry {
	id: number;
	name: string;
	self_link: string;
}

/** Custom fields of the chosen list. */
export async function searchCustomFields(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollectionPage<CustomFieldEntry>(this, {
		path: async () => `${await listPathForSearch(this)}/custom_fields`,
		toResult: (field) => ({ name: field.name, value: String(field.id) }),
		filter,
		paginationToken,
	});
}
