// A 200 answer with one page of a 1.0 collection, as every route that lists answers it: the request's ws.* query,
// resource types under the API root (offsetPage in ../collections does the paging).
import { offsetPage, type TotalKind } from '../collections';
import { ok, type ApiContext, type ApiResult } from './context';

export function collectionPage<T>(
	ctx: ApiContext,
	url: string,
	items: readonly T[],
	entryType: string,
	render: (item: T) => object,
	totalKind: TotalKind = 'total_size',
): ApiResult {
	return ok(offsetPage({ url, query: ctx.query, items, render, entryType, totalKind, resourceTypeBase: `${ctx.links.api}/` }));
}
