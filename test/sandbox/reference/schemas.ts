// Hand-written extract of AWeber's API reference schemas (source and review notes: README.md next to this file).
// Only what the validator in validate.ts understands: type, properties, required, enum, minimum, maximum,
// items, closed (no properties beyond those listed) and pattern.

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

export interface ReferenceSchema {
	type?: JsonType | JsonType[];
	properties?: Record<string, ReferenceSchema>;
	required?: string[];
	enum?: Array<string | number>;
	minimum?: number;
	maximum?: number;
	items?: ReferenceSchema;
	/** The reference lists every property (the sandbox may send no other). */
	closed?: boolean;
	/** A regular expression the string must match (formats such as uuid, or an enum's suffix). */
	pattern?: string;
}

const UUID = '^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$';
const string: ReferenceSchema = { type: 'string' };
const integer: ReferenceSchema = { type: 'integer' };
const boolean: ReferenceSchema = { type: 'boolean' };
const nonNegative: ReferenceSchema = { type: 'integer', minimum: 0 };

/** components.schemas.Subscriber (Get subscriber, Get subscribers, Update subscriber). */
export const Subscriber: ReferenceSchema = {
	type: 'object',
	properties: {
		ad_tracking: string,
		area_code: { type: 'integer', minimum: 0, maximum: 999 },
		city: string,
		country: string,
		custom_fields: { type: 'object' },
		// Reviewed departure: the reference says integer, AWeber sends a string (README.md).
		dma_code: { type: ['integer', 'string'] },
		email: string,
		id: nonNegative,
		ip_address: string,
		is_verified: boolean,
		last_followup_message_number_sent: { type: 'integer', minimum: 0, maximum: 1001 },
		last_followup_sent_at: string,
		last_followup_sent_link: string,
		latitude: { type: 'number', minimum: -90, maximum: 90 },
		longitude: { type: 'number', minimum: -180, maximum: 180 },
		misc_notes: string,
		name: string,
		postal_code: string,
		region: string,
		resource_type_link: { type: 'string', pattern: '#subscriber$' },
		self_link: string,
		status: { type: 'string', enum: ['subscribed', 'unsubscribed', 'unconfirmed'] },
		subscribed_at: string,
		subscription_method: { type: 'string', enum: ['api', 'email', 'import', 'webform'] },
		subscription_url: string,
		tags: { type: 'array', items: string },
		unsubscribe_method: { type: 'string', enum: ['unsubscribe link', 'customer cp', 'undeliverable', 'api: unsubscribe', 'api: move'] },
		unsubscribed_at: string,
		verified_at: string,
	},
};

/** components.schemas.Campaign (Get campaign, Get campaigns, Find campaigns). */
export const Campaign: ReferenceSchema = {
	type: 'object',
	properties: {
		campaign_type: { type: 'string', enum: ['b', 'f'] },
		click_tracking_enabled: boolean,
		content_type: { type: 'string', enum: ['Text', 'HTML', 'Text/HTML'] },
		id: integer,
		is_archived: boolean,
		links_collection_link: string,
		message_interval: { type: 'integer', minimum: 1, maximum: 999 },
		message_number: { type: 'integer', minimum: 1, maximum: 999 },
		resource_type_link: string,
		scheduled_at: string,
		self_link: string,
		sent_at: string,
		spam_assassin_score: { type: 'number' },
		stats_collection_link: string,
		subject: string,
		total_clicks: integer,
		total_opens: integer,
		total_sent: integer,
		total_spam_complaints: integer,
		total_undelivered: integer,
		total_unsubscribes: integer,
		twitter_account_link: string,
	},
};

/** components.schemas.FindCampaigns (Find campaigns: ws.op=find). */
export const FindCampaigns: ReferenceSchema = {
	type: 'object',
	properties: {
		entries: { type: 'array', items: Campaign },
		next_collection_link: string,
		prev_collection_link: string,
		start: nonNegative,
		total_size_link: string,
	},
};

/** components.schemas.Stat (Get broadcast statistic, Get broadcast statistics' entries). */
export const Stat: ReferenceSchema = {
	type: 'object',
	properties: {
		description: string,
		id: string,
		// The enum names integer_stat / decimal_stat / list_stat; the example is the full link (README.md).
		resource_type_link: { type: 'string', pattern: '#(integer_stat|decimal_stat|list_stat)$' },
		self_link: string,
	},
};

/**
 * The path enum of Get broadcast statistic (`…/campaigns/b{campaignId}/stats/{statId}`): `*_unsubscribed`,
 * where the Stat schema's prose says `*_unsubscribes` (docs/aweber-behaviour.md#broadcast-statistics).
 */
export const BROADCAST_STATISTIC_IDS_IN_PATH_ENUM = [
	'total_clicks',
	'unique_clicks',
	'total_opens',
	'unique_opens',
	'total_sales',
	'total_sales_dollars',
	'total_unsubscribed',
	'hourly_opens',
	'hourly_clicks',
	'hourly_webhits',
	'hourly_sales',
	'hourly_unsubscribed',
	'daily_opens',
	'daily_clicks',
	'daily_webhits',
	'daily_sales',
	'daily_unsubscribed',
	'clicks_by_link',
	'webhits_by_link',
	'opens_by_subscriber',
	'sales_by_subscriber',
];

/** components.schemas.Broadcasts (Get broadcasts): every property of the envelope and of its entries. */
export const Broadcasts: ReferenceSchema = {
	type: 'object',
	closed: true,
	required: ['entries', 'self_link', 'resource_type_link', 'start', 'total_size_link'],
	properties: {
		entries: {
			type: 'array',
			items: {
				type: 'object',
				closed: true,
				properties: {
					uuid: { type: 'string', pattern: UUID },
					broadcast_id: integer,
					self_link: string,
					status: { type: 'string', enum: ['draft', 'scheduled', 'sent'] },
					scheduled_for: string,
					sent_at: string,
					subject: string,
				},
			},
		},
		next_collection_link: string,
		prev_collection_link: string,
		resource_type_link: string,
		self_link: string,
		start: nonNegative,
		total_size_link: string,
	},
};

/** components.schemas.LandingPageNoContent (the entries of Get landing pages). */
export const LandingPageNoContent: ReferenceSchema = {
	type: 'object',
	closed: true,
	properties: {
		created_at: string,
		id: { type: 'string', pattern: UUID },
		modified_at: string,
		name: string,
		published_at: string,
		published_url: string,
		resource_type_link: string,
		self_link: string,
		status: { type: 'string', enum: ['published', 'unpublished'] },
		// Not in the schema, but on every AWeber entry (docs/aweber-behaviour.md#entries).
		http_etag: string,
	},
};

/** components.schemas.LandingPage (Get landing page): LandingPageNoContent plus the HTML. */
export const LandingPage: ReferenceSchema = {
	...LandingPageNoContent,
	properties: { ...LandingPageNoContent.properties, content_html: string, published_html: string },
};

/** components.schemas.LandingPages (Get landing pages). */
export const LandingPages: ReferenceSchema = {
	type: 'object',
	closed: true,
	properties: {
		entries: { type: 'array', items: LandingPageNoContent },
		next_collection_link: string,
		prev_collection_link: string,
		resource_type_link: string,
		start: nonNegative,
		total_size: nonNegative,
	},
};

/** Beta API, getBroadcastLinksAnalytics (GET /2.0-beta/analytics/reports/broadcasts-links), 200: a bare array. */
export const BroadcastLinksReport: ReferenceSchema = {
	type: 'array',
	items: {
		type: 'object',
		closed: true,
		required: ['url', 'unique', 'total', 'type'],
		properties: {
			url: string,
			unique: integer,
			total: integer,
			type: { type: 'string', enum: ['click', 'pageview'] },
		},
	},
};

/** Beta API, getBroadcastLinksAnalytics 400 / 404: application/problem+json. */
export const Problem: ReferenceSchema = {
	type: 'object',
	closed: true,
	properties: { type: string, title: string, status: integer, instance: string, detail: string },
};

/** The fields every broadcast open or click entry has (BroadcastOpens / BroadcastClicks / BroadcastClicksDetailed items). */
const activityEntry = (type: 'open' | 'click', more: Record<string, ReferenceSchema>): ReferenceSchema => ({
	type: 'object',
	closed: true,
	properties: {
		email: string,
		event_time: string,
		resource_type_link: { type: 'string', pattern: `#${type}$` },
		subscriber_link: string,
		type: { type: 'string', enum: [type] },
		...more,
	},
});

/** The cursor-paged envelope of broadcast opens and clicks: no start, no self_link; links carry before / after. */
const cursorEnvelope = (type: 'open' | 'click', entry: ReferenceSchema): ReferenceSchema => ({
	type: 'object',
	closed: true,
	properties: {
		entries: { type: 'array', items: entry },
		next_collection_link: { type: 'string', pattern: '[?&]after=' },
		prev_collection_link: { type: 'string', pattern: '[?&]before=' },
		resource_type_link: { type: 'string', pattern: `#${type}-page-resource$` },
		total_size: nonNegative,
	},
});

/** components.schemas.BroadcastOpens (Get broadcast opens: the first open per subscriber, most recent first by event_time). */
export const BroadcastOpens: ReferenceSchema = cursorEnvelope('open', activityEntry('open', {}));

/** components.schemas.BroadcastClicks (Get broadcast clicks, aggregated: event_time is the subscriber's first click). */
export const BroadcastClicks: ReferenceSchema = cursorEnvelope(
	'click',
	activityEntry('click', { first_click_at: string, last_click_at: string, total_clicks: { type: 'integer', minimum: 1 } }),
);

/** components.schemas.BroadcastClicksDetailed (Get broadcast clicks with detailed=true: one entry per click, with its URL). */
export const BroadcastClicksDetailed: ReferenceSchema = cursorEnvelope('click', activityEntry('click', { clicked_at: string, url: string }));
