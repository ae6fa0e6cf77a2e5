import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { aweberGet } from '../transport';
import { accountIdForSearch } from './accountIdForSearch';
import { listIdForSearch } from './parentIdForSearch';

interface CampaignEntry {
	id: number;
	campaign_type: 'b' | 'f';
	subject?: string;
	message_number?: number;
	sent_at?: string | null;
	self_link: string;
}

/** Campaigns of the chosen list: sent broadcasts (b…) newest first, then follow-ups (f…) by message number. */
export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken
		? await aweberGet<{ entries: CampaignEntry[]; next_collection_link?: string }>(this, paginationToken)
		: await aweberGet<{ entries: CampaignEntry[]; next_collection_link?: string }>(
				this,
				`/accounts/${await accountIdForSearch(this)}/lists/${listIdForSearch(this)}/campaigns`,
				{ 'ws.size': 100 },
			);
	const needle = filter?.toLowerCase();
	const results = page.entries
		.map((campaign) => ({
			name: campaignName(campaign),
			value: `${campaign.campaign_type}${campaign.id}`,
			url: campaign.self_link,
		}))
		.filter((result) => !needle || result.name.toLowerCase().includes(needle) || result.value === needle);
	return { results, paginationToken: page.next_collection_link };
}

function campaignName(campaign: CampaignEntry): string {
	const subject = campaign.subject || '(no subject)';
	if (campaign.campaign_type === 'f') return `Follow-up #${campaign.message_number ?? '?'}: ${subject}`;
	const sent = campaign.sent_at ? ` (sent ${campaign.sent_at.slice(0, 10)})` : '';
	return `Broadcast: ${subject}${sent}`;
}
