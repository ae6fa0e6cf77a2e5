// Absolute links as AWeber writes them (self_link, *_collection_link, resource_type_link), on the sandbox's base.
import { createHash } from 'node:crypto';

export class Links {
	/** `http://127.0.0.1:<port>/1.0` */
	readonly api: string;

	constructor(
		baseUrl: string,
		readonly accountId: number,
	) {
		this.api = `${baseUrl}/1.0`;
	}

	resourceType(type: string): string {
		return `${this.api}/#${type}`;
	}

	account(): string {
		return `${this.api}/accounts/${this.accountId}`;
	}

	integration(id: number): string {
		return `${this.account()}/integrations/${id}`;
	}

	list(listId: number): string {
		return `${this.account()}/lists/${listId}`;
	}

	subscriber(listId: number, subscriberId: number): string {
		return `${this.list(listId)}/subscribers/${subscriberId}`;
	}

	customField(listId: number, fieldId: number): string {
		return `${this.list(listId)}/custom_fields/${fieldId}`;
	}

	broadcast(listId: number, broadcastId: number): string {
		return `${this.list(listId)}/broadcasts/${broadcastId}`;
	}

	campaign(listId: number, type: string, campaignId: number): string {
		return `${this.list(listId)}/campaigns/${type}${campaignId}`;
	}

	message(listId: number, type: string, campaignId: number, messageId: number): string {
		return `${this.campaign(listId, type, campaignId)}/messages/${messageId}`;
	}

	segment(listId: number, segmentId: number): string {
		return `${this.list(listId)}/segments/${segmentId}`;
	}

	webForm(listId: number, webFormId: number): string {
		return `${this.list(listId)}/web_forms/${webFormId}`;
	}

	splitTest(listId: number, splitTestId: number): string {
		return `${this.list(listId)}/web_form_split_tests/${splitTestId}`;
	}

	landingPage(listId: number, landingPageId: string): string {
		return `${this.list(listId)}/landing_pages/${landingPageId}`;
	}

	/** The list id in one of this account's list links, or undefined for anything else. */
	parseListLink(link: string): number | undefined {
		const match = new RegExp(`^${escapeRegExp(this.account())}/lists/(\\d+)/?$`).exec(link.trim());
		return match === null ? undefined : Number(match[1]);
	}

	parseSegmentLink(link: string): { listId: number; segmentId: number } | undefined {
		const match = new RegExp(`^${escapeRegExp(this.account())}/lists/(\\d+)/segments/(\\d+)/?$`).exec(link.trim());
		return match === null ? undefined : { listId: Number(match[1]), segmentId: Number(match[2]) };
	}

	parseIntegrationLink(link: string): number | undefined {
		const match = new RegExp(`^${escapeRegExp(this.account())}/integrations/(\\d+)/?$`).exec(link.trim());
		return match === null ? undefined : Number(match[1]);
	}
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** AWeber's http_etag: a quoted pair of SHA-1 hex digests joined by '-'. */
export function httpEtag(entry: object): string {
	const json = JSON.stringify(entry);
	const first = createHash('sha1').update(json).digest('hex');
	const second = createHash('sha1').update(`${json}#representation`).digest('hex');
	return `"${first}-${second}"`;
}

/** AWeber-style timestamp with an explicit zone, e.g. 2025-01-06T09:00:00+00:00. */
export function formatTime(ms: number | null): string | null {
	if (ms === null) return null;
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
