import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listPathForSearch } from './parentIdForSearch';
import { searchCollectionPage } from './searchCollectionPage';

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
	return await searchCollectionPage<CampaignEntry>(this, {
		path: async () => `${await listPathForSearch(this)}/campaigns`,
		toResult: (campaign) => ({
			name: campaignName(campaign),
			value: `${campaign.campaign_type}${campaign.id}`,
		}),
		filter,
		paginationToken,
	});
}

function campaignName(campaign: CampaignEntry): string {
	const subject = campaign.subject || '(no subject)';
	if (campaign.campaign_type === 'f') return `Follow-up #${campaign.message_number ?? '?'}: ${subject}`;
	return `Broadcast: ${subject}${campaign.sent_at ? ` (sent ${campaign.sent_at.slice(0, 10)})` : ''}`;
}
