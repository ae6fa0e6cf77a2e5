import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listPathForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

interface SegmentEntry {
	id: number;
	name: string;
	is_split_test?: boolean;
	self_link: string;
}

function segmentSearch(forBroadcast: boolean) {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		const page = await searchCollectionPage<SegmentEntry>(this, {
			path: async () => `${await listPathForSearch(this)}/segments`,
			toResult: (segment) => ({
				name: segment.is_split_test ? `${segment.name} (split test)` : segment.name,
				value: String(segment.id),
			}),
			filter,
			paginationToken,
		});
		if (!forBroadcast) return page;
		// AWeber refuses split-test segments as a broadcast's segment (SplitTestSegmentError).
		return { ...page, results: page.results.filter((result) => !result.name.endsWith('(split test)')) };
	};
}

export const searchSegments = segmentSearch(false);
export const searchBroadcastSegments = segmentSearch(true);
