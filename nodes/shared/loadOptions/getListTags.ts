import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listPathForSearch } from '../listSearch/parentIdForSearch';
import { aweberGet } from '../transport';
import { chooseListFirst, listNotChosen } from './listNotChosen';

/** The chosen list's tags (AWeber answers its most popular tags as a bare array of strings). */
export async function getListTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	if (listNotChosen(this)) return chooseListFirst;
	const tags = await aweberGet<unknown>(this, `${await listPathForSearch(this)}/tags`);
	if (!Array.isArray(tags)) return [];
	return tags
		.filter((tag): tag is string => typeof tag === 'string')
		.sort((a, b) => a.localeCompare(b))
		.map((tag) => ({ name: tag, value: tag }));
}
