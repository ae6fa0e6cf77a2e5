import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { readAllEntries } from '../collections';
import { accountIdForSearch } from './accountIdForSearch';
import { filterResults } from './searchCollectionPage';

interface IntegrationEntry {
	id: number;
	service_name: string;
	login?: string;
	self_link: string;
}

function integrationSearch(service?: string) {
	return async function (this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const accountId = await accountIdForSearch(this);
		const results: INodeListSearchResult['results'] = [];
		for (const integration of await readAllEntries<IntegrationEntry>(this, `/accounts/${accountId}/integrations`)) {
			if (service && integration.service_name.toLowerCase() !== service) continue;
			const name = `${integration.service_name}${integration.login ? ` (${integration.login})` : ''}`;
			results.push({ name, value: String(integration.id) });
		}
		return { results: filterResults(results, filter) };
	};
}

export const searchIntegrations = integrationSearch();
/** Broadcasts take Facebook and Twitter integrations only, each in its own field. */
export const searchFacebookIntegrations = integrationSearch('facebook');
export const searchTwitterIntegrations = integrationSearch('twitter');
