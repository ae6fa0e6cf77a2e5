import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listCustomFieldNames } from '../customFields';
import { listPathForSearch } from '../listSearch/parentIdForSearch';
import { chooseListFirst, listNotChosen } from './listNotChosen';

/** The chosen list's custom fields; the option value is the name, which is what subscriber bodies carry. */
export async function getCustomFieldNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	if (listNotChosen(this)) return chooseListFirst;
	const names = await listCustomFieldNames(this, await listPathForSearch(this));
	return names.map((name) => ({ name, value: name }));
}
