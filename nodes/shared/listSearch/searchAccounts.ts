import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { readCollectionPage } from '../collections';
import { filterResults } from './searchCollectionPage';

interface AccountEntry {
	id: number;
	company?: string;
	self_link: string;
}

export async function searchAccounts(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const page = await readCollectionPage<AccountEntry>(this, '/accounts');
	const results = page.entries.map((account) => ({
		name: account.company ? `${account.company} (${account.id})` : `Account ${account.id}`,
		value: String(account.id),
	}));
	return { results: filterResults(results, filter) };
}
