// Campaigns (broadcast `b…` and follow-up `f…`), their statistics, messages, opens and tracked events.
// A broadcast becomes a campaign with the same id once it starts sending. docs/aweber-behaviour.md#conventions.
import { badRequest, missingArgument, notFound } from '../errors';
import { formatTime, httpEtag } from '../links';
import type {
	BroadcastRecord,
	BroadcastStats,
	CampaignType,
	FollowUpRecord,
	MessageRecord,
	OpenRecord,
	SandboxState,
	TrackedEventRecord,
} from '../state';
import { intParam, listOf, ok, type ApiContext, type ApiRoutes } from './context';
import { collectionPage } from './collectionPage';
import { subscriberEntry } from './subscribers';
import { trackedEventFields } from './trackedEventFields';

const READ = 'email.read';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Campaign = { type: 'b'; record: BroadcastRecord } | { type: 'f'; record: FollowUpRecord };

export function isBroadcastCampaign(broadcast: BroadcastRecord): boolean {
	return broadcast.status === 'sending' || broadcast.status === 'sent';
}

export function campaignMessages(state: SandboxState, type: CampaignType, campaignId: number): MessageRecord[] {
	const messages: MessageRecord[] = [];
	for (const message of state.messages.values()) {
		if (message.campaignType === type && message.campaignId === campaignId) messages.push(message);
	}
	return messages;
}

interface Activity {
	messages: MessageRecord[];
	opens: OpenRecord[];
	clicks: SandboxState['clicks'];
	trackedEvents: TrackedEventRecord[];
	unsubscribes: number;
}

export function activityOf(state: SandboxState, type: CampaignType, campaignId: number): Activity {
	const messages = campaignMessages(state, type, campaignId);
	const ids = new Set(messages.map((message) => message.id));
	let unsubscribes = 0;
	for (const message of messages) {
		const subscriber = state.subscribers.get(message.subscriberId);
		if (subscriber?.unsubscribedAt !== null && subscriber !== undefined && (subscriber.unsubscribedAt as number) >= message.eventTime) {
			unsubscribes++;
		}
	}
	return {
		messages,
		opens: state.opens.filter((open) => ids.has(open.messageId)),
		clicks: state.clicks.filter((click) => ids.has(click.messageId)),
		trackedEvents: state.trackedEvents.filter((event) => event.messageId !== null && ids.has(event.messageId)),
		unsubscribes,
	};
}

const uniqueSubscribers = (events: Array<{ subscriberId: number }>) => new Set(events.map((event) => event.subscriberId)).size;

/** The `stats` object of a sent broadcast. */
export function broadcastStats(state: SandboxState, broadcast: BroadcastRecord): BroadcastStats {
	const activity = activityOf(state, 'b', broadcast.id);
	return {
		num_emailed: activity.messages.length,
		num_undeliv: 0,
		num_complaints: 0,
		unique_opens: uniqueSubscribers(activity.opens),
		unique_clicks: uniqueSubscribers(activity.clicks),
	};
}

function contentType(record: BroadcastRecord): 'Text' | 'HTML' | 'Text/HTML' {
	if (record.bodyHtml !== null && record.bodyText !== null) return 'Text/HTML';
	return record.bodyHtml !== null ? 'HTML' : 'Text';
}

function campaignEntry(ctx: ApiContext, campaign: Campaign): Record<string, unknown> {
	const { links, state } = ctx;
	const { record } = campaign;
	const self = links.campaign(record.listId, campaign.type, record.id);
	const activity = activityOf(state, campaign.type, record.id);
	const common = {
		id: record.id,
		campaign_type: campaign.type,
		subject: record.subject,
		click_tracking_enabled: record.clickTrackingEnabled,
		spam_assassin_score: record.spamAssassinScore,
		total_sent: activity.messages.length,
		total_opens: activity.opens.length,
		total_clicks: activity.clicks.length,
		total_spam_complaints: 0,
		total_undelivered: 0,
		total_unsubscribes: activity.unsubscribes,
		messages_collection_link: `${self}/messages`,
		links_collection_link: `${self}/links`,
		self_link: self,
	};
	// Campaign entries carry no http_etag (AWeber changelog 1.0.67).
	if (campaign.type === 'b') {
		return {
			...common,
			content_type: contentType(campaign.record),
			is_archived: campaign.record.isArchived,
			scheduled_at: formatTime(campaign.record.scheduledFor),
			sent_at: formatTime(campaign.record.sentAt),
			stats_collection_link: `${self}/stats`,
			twitter_account_link: campaign.record.twitterIntegrationId === null ? null : links.integration(campaign.record.twitterIntegrationId),
			resource_type_link: links.resourceType('broadcast_campaign'),
		};
	}
	return {
		...common,
		content_type: campaign.record.contentType,
		message_interval: campaign.record.messageInterval,
		message_number: campaign.record.messageNumber,
		resource_type_link: links.resourceType('followup_campaign'),
	};
}

/** Broadcasts by sent_at, newest first, then follow-ups by message number (AWeber changelog 1.0.13). */
function campaignsOfList(ctx: ApiContext, listId: number): Campaign[] {
	const broadcasts: Campaign[] = [...ctx.state.broadcasts.values()]
		.filter((broadcast) => broadcast.listId === listId && isBroadcastCampaign(broadcast))
		.sort((a, b) => (b.sentAt ?? 0) - (a.sentAt ?? 0))
		.map((record) => ({ type: 'b', record }));
	const followUps: Campaign[] = [...ctx.state.followUps.values()]
		.filter((followUp) => followUp.listId === listId)
		.sort((a, b) => a.messageNumber - b.messageNumber)
		.map((record) => ({ type: 'f', record }));
	return [...broadcasts, ...followUps];
}

function campaignOf(ctx: ApiContext): Campaign {
	const list = listOf(ctx);
	const match = /^([bf])(\d+)$/.exec(ctx.params.campaignRef ?? '');
	if (match === null) throw notFound('Campaign not found');
	const id = Number(match[2]);
	if (match[1] === 'b') {
		const broadcast = ctx.state.broadcasts.get(id);
		if (broadcast !== undefined && broadcast.listId === list.id && isBroadcastCampaign(broadcast)) {
			return { type: 'b', record: broadcast };
		}
	} else {
		const followUp = ctx.state.followUps.get(id);
		if (followUp !== undefined && followUp.listId === list.id) return { type: 'f', record: followUp };
	}
	throw notFound('Campaign not found');
}

// ---- statistics (broadcasts only) ----

interface Stat {
	id: string;
	description: string;
	kind: 'integer_stat' | 'decimal_stat' | 'list_stat';
	value: unknown;
}

function countByBucket(times: number[], start: number, bucketMs: number, buckets: number): Array<{ datetime: string | null; value: number }> {
	const counts = new Array<number>(buckets).fill(0);
	for (const time of times) {
		const bucket = Math.floor((time - start) / bucketMs);
		if (bucket >= 0 && bucket < buckets) counts[bucket]++;
	}
	return counts.map((value, index) => ({ datetime: formatTime(start + index * bucketMs), value }));
}

function topTen<T>(items: Map<string, T>, score: (item: T) => number): T[] {
	return [...items.values()].sort((a, b) => score(b) - score(a)).slice(0, 10);
}

function broadcastStatistics(ctx: ApiContext, broadcast: BroadcastRecord): Stat[] {
	const { state, links } = ctx;
	const activity = activityOf(state, 'b', broadcast.id);
	const sales = activity.trackedEvents.filter((event) => event.type === 'sale');
	const webhits = activity.trackedEvents.filter((event) => event.type === 'webhit');
	const sentAt = broadcast.sentAt ?? 0;
	const unsubscribeTimes = activity.messages
		.map((message) => state.subscribers.get(message.subscriberId)?.unsubscribedAt ?? null)
		.filter((time): time is number => time !== null && time >= sentAt);
	const series = (what: string, times: number[]): Stat[] => [
		{ id: `hourly_${what}`, description: `Hourly ${what} in the first 24 hours`, kind: 'list_stat', value: countByBucket(times, sentAt, HOUR, 24) },
		{ id: `daily_${what}`, description: `Daily ${what} in the first 14 days`, kind: 'list_stat', value: countByBucket(times, sentAt, DAY, 14) },
	];

	const clicksByLink = new Map<string, { url: string; total_clicks: number; subscribers: Set<number> }>();
	for (const click of activity.clicks) {
		const entry = clicksByLink.get(click.url) ?? { url: click.url, total_clicks: 0, subscribers: new Set<number>() };
		entry.total_clicks++;
		entry.subscribers.add(click.subscriberId);
		clicksByLink.set(click.url, entry);
	}
	const webhitsByLink = new Map<string, { url: string; total_webhits: number }>();
	for (const hit of webhits) {
		const entry = webhitsByLink.get(hit.url) ?? { url: hit.url, total_webhits: 0 };
		entry.total_webhits++;
		webhitsByLink.set(hit.url, entry);
	}
	const subscriberRef = (subscriberId: number) => {
		const subscriber = state.subscribers.get(subscriberId);
		return {
			subscriber_link: subscriber === undefined ? null : links.subscriber(subscriber.listId, subscriber.id),
			email: subscriber?.email ?? null,
		};
	};
	const opensBySubscriber = new Map<string, { subscriberId: number; total_opens: number }>();
	for (const open of activity.opens) {
		const entry = opensBySubscriber.get(String(open.subscriberId)) ?? { subscriberId: open.subscriberId, total_opens: 0 };
		entry.total_opens++;
		opensBySubscriber.set(String(open.subscriberId), entry);
	}
	const salesBySubscriber = new Map<string, { subscriberId: number; total_sales: number; total_sales_dollars: number }>();
	for (const sale of sales) {
		const entry = salesBySubscriber.get(String(sale.subscriberId)) ?? { subscriberId: sale.subscriberId, total_sales: 0, total_sales_dollars: 0 };
		entry.total_sales++;
		entry.total_sales_dollars += sale.value ?? 0;
		salesBySubscriber.set(String(sale.subscriberId), entry);
	}

	return [
		{ id: 'total_clicks', description: 'Total clicks', kind: 'integer_stat', value: activity.clicks.length },
		{ id: 'unique_clicks', description: 'Unique clicks', kind: 'integer_stat', value: uniqueSubscribers(activity.clicks) },
		{ id: 'total_opens', description: 'Total opens', kind: 'integer_stat', value: activity.opens.length },
		{ id: 'unique_opens', description: 'Unique opens', kind: 'integer_stat', value: uniqueSubscribers(activity.opens) },
		{ id: 'total_sales', description: 'Total sales', kind: 'integer_stat', value: sales.length },
		{
			id: 'total_sales_dollars',
			description: 'Total sales in dollars',
			kind: 'decimal_stat',
			value: Math.round(sales.reduce((sum, sale) => sum + (sale.value ?? 0), 0) * 100) / 100,
		},
		{ id: 'total_unsubscribed', description: 'Total unsubscribes', kind: 'integer_stat', value: unsubscribeTimes.length },
		...series('opens', activity.opens.map((open) => open.eventTime)),
		...series('clicks', activity.clicks.map((click) => click.eventTime)),
		...series('webhits', webhits.map((hit) => hit.eventTime)),
		...series('sales', sales.map((sale) => sale.eventTime)),
		// The reference's path enum names these daily_unsubscribed / hourly_unsubscribed (docs/aweber-behaviour.md#statistics).
		...series('unsubscribed', unsubscribeTimes),
		{
			id: 'clicks_by_link',
			description: 'Top 10 links by clicks',
			kind: 'list_stat',
			value: topTen(clicksByLink, (entry) => entry.total_clicks).map((entry) => ({
				url: entry.url,
				total_clicks: entry.total_clicks,
				unique_clicks: entry.subscribers.size,
			})),
		},
		{
			id: 'webhits_by_link',
			description: 'Top 10 links by web hits',
			kind: 'list_stat',
			value: topTen(webhitsByLink, (entry) => entry.total_webhits),
		},
		{
			id: 'opens_by_subscriber',
			description: 'Top 10 subscribers by opens',
			kind: 'list_stat',
			value: topTen(opensBySubscriber, (entry) => entry.total_opens).map((entry) => ({
				...subscriberRef(entry.subscriberId),
				total_opens: entry.total_opens,
			})),
		},
		{
			id: 'sales_by_subscriber',
			description: 'Top 10 subscribers by sales',
			kind: 'list_stat',
			value: topTen(salesBySubscriber, (entry) => entry.total_sales_dollars).map((entry) => ({
				...subscriberRef(entry.subscriberId),
				total_sales: entry.total_sales,
				total_sales_dollars: entry.total_sales_dollars,
			})),
		},
	];
}

function statEntry(ctx: ApiContext, broadcast: BroadcastRecord, stat: Stat): Record<string, unknown> {
	const fields = {
		id: stat.id,
		description: stat.description,
		value: stat.value,
		self_link: `${ctx.links.campaign(broadcast.listId, 'b', broadcast.id)}/stats/${stat.id}`,
		resource_type_link: ctx.links.resourceType(stat.kind),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

function broadcastCampaignOf(ctx: ApiContext): BroadcastRecord {
	const campaign = campaignOf(ctx);
	if (campaign.type !== 'b') throw notFound('Statistics are only available for broadcast campaigns');
	return campaign.record;
}

// ---- messages, opens, tracked events ----

function messageEntry(ctx: ApiContext, message: MessageRecord): Record<string, unknown> {
	const { links, state } = ctx;
	const self = links.message(message.listId, message.campaignType, message.campaignId, message.id);
	const opens = state.opens.filter((open) => open.messageId === message.id);
	const subscriber = state.subscribers.get(message.subscriberId);
	const fields = {
		id: message.id,
		event_time: formatTime(message.eventTime),
		type: 'message',
		total_opens: opens.length,
		last_opened: formatTime(opens.length === 0 ? null : Math.max(...opens.map((open) => open.eventTime))),
		subscriber_link: subscriber === undefined ? null : links.subscriber(subscriber.listId, subscriber.id),
		opens_collection_link: `${self}/opens`,
		tracked_events_collection_link: `${self}/tracked_events`,
		self_link: self,
		resource_type_link: links.resourceType('message'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

function messageOf(ctx: ApiContext): MessageRecord {
	const campaign = campaignOf(ctx);
	const message = ctx.state.messages.get(intParam(ctx, 'messageId', 'Message'));
	if (message === undefined || message.campaignType !== campaign.type || message.campaignId !== campaign.record.id) {
		throw notFound('Message not found');
	}
	return message;
}

function subscriberLinkOf(ctx: ApiContext, subscriberId: number): string | null {
	const subscriber = ctx.state.subscribers.get(subscriberId);
	return subscriber === undefined ? null : ctx.links.subscriber(subscriber.listId, subscriber.id);
}

function openEntry(ctx: ApiContext, message: MessageRecord, open: OpenRecord): Record<string, unknown> {
	const fields = {
		id: open.id,
		event_time: formatTime(open.eventTime),
		type: 'open',
		subscriber_link: subscriberLinkOf(ctx, open.subscriberId),
		self_link: `${ctx.links.message(message.listId, message.campaignType, message.campaignId, message.id)}/opens/${open.id}`,
		resource_type_link: ctx.links.resourceType('open'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

function trackedEventEntry(ctx: ApiContext, message: MessageRecord, event: TrackedEventRecord): Record<string, unknown> {
	const fields = {
		id: event.id,
		event_time: formatTime(event.eventTime),
		type: event.type,
		...trackedEventFields(event),
		subscriber_link: subscriberLinkOf(ctx, event.subscriberId),
		self_link: `${ctx.links.message(message.listId, message.campaignType, message.campaignId, message.id)}/tracked_events/${event.id}`,
		resource_type_link: ctx.links.resourceType('tracked_event'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

/**
 * The unsubscribe time series answer to both spellings, the reference's path enum (`*_unsubscribed`) and its
 * prose (`*_unsubscribes`), unless a test narrowed them (`sandbox.statisticNames`); a refused spelling is a 404.
 */
function acceptedStatisticId(ctx: ApiContext, requested: string): string | undefined {
	const match = /^(hourly|daily)_unsubscrib(ed|es)$/.exec(requested);
	if (match === null) return requested;
	const spelling = match[2] === 'ed' ? 'unsubscribed' : 'unsubscribes';
	if (!ctx.state.unsubscribeStatisticSpellings.includes(spelling)) return undefined;
	return `${match[1]}_unsubscribed`;
}

export function registerCampaignRoutes(routes: ApiRoutes): void {
	const collection = '/accounts/:accountId/lists/:listId/campaigns';
	const campaign = `${collection}/:campaignRef`;
	const message = `${campaign}/messages/:messageId`;

	routes.add('GET', collection, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const listId = listOf(ctx).id;
				return collectionPage(ctx, `${ctx.links.list(listId)}/campaigns`, campaignsOfList(ctx, listId), 'campaign', (c) => campaignEntry(ctx, c));
			},
		},
		named: {
			find: {
				scope: READ,
				handle: (ctx) => {
					const listId = listOf(ctx).id;
					const type = ctx.query.campaign_type;
					// Find campaigns: the reference marks campaign_type required.
					if (type === undefined || type === '') throw missingArgument('campaign_type');
					if (type !== 'b' && type !== 'f') {
						throw badRequest('campaign_type: Invalid value. Acceptable values are: b, f.');
					}
					const found = campaignsOfList(ctx, listId).filter((c) => c.type === type);
					return collectionPage(ctx, `${ctx.links.list(listId)}/campaigns`, found, 'campaign', (c) => campaignEntry(ctx, c), 'total_size_link');
				},
			},
		},
	});
	routes.add('GET', campaign, { plain: { scope: READ, handle: (ctx) => ok(campaignEntry(ctx, campaignOf(ctx))) } });

	routes.add('GET', `${campaign}/stats`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const broadcast = broadcastCampaignOf(ctx);
				const url = `${ctx.links.campaign(broadcast.listId, 'b', broadcast.id)}/stats`;
				return collectionPage(ctx, url, broadcastStatistics(ctx, broadcast), 'stat', (stat) => statEntry(ctx, broadcast, stat));
			},
		},
	});
	routes.add('GET', `${campaign}/stats/:statId`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const broadcast = broadcastCampaignOf(ctx);
				const statId = acceptedStatisticId(ctx, ctx.params.statId);
				const stat = broadcastStatistics(ctx, broadcast).find((candidate) => candidate.id === statId);
				if (stat === undefined) throw notFound('Statistic not found');
				return ok(statEntry(ctx, broadcast, stat));
			},
		},
	});

	routes.add('GET', `${campaign}/messages`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const c = campaignOf(ctx);
				const url = `${ctx.links.campaign(c.record.listId, c.type, c.record.id)}/messages`;
				return collectionPage(ctx, url, campaignMessages(ctx.state, c.type, c.record.id), 'message', (m) => messageEntry(ctx, m));
			},
		},
		named: {
			getSubscribers: {
				scope: 'subscriber.read',
				handle: (ctx) => {
					const c = campaignOf(ctx);
					const url = `${ctx.links.campaign(c.record.listId, c.type, c.record.id)}/messages`;
					const subscribers = campaignMessages(ctx.state, c.type, c.record.id)
						.map((m) => ctx.state.subscribers.get(m.subscriberId))
						.filter((subscriber) => subscriber !== undefined);
					return collectionPage(ctx, url, subscribers, 'subscriber', (s) => subscriberEntry(ctx, s), 'total_size_link');
				},
			},
		},
	});
	routes.add('GET', message, { plain: { scope: READ, handle: (ctx) => ok(messageEntry(ctx, messageOf(ctx))) } });
	routes.add('GET', `${message}/opens`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const m = messageOf(ctx);
				const url = `${ctx.links.message(m.listId, m.campaignType, m.campaignId, m.id)}/opens`;
				return collectionPage(ctx, url, ctx.state.opens.filter((open) => open.messageId === m.id), 'open', (open) => openEntry(ctx, m, open));
			},
		},
	});
	routes.add('GET', `${message}/opens/:openId`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const m = messageOf(ctx);
				const openId = intParam(ctx, 'openId', 'Open');
				const open = ctx.state.opens.find((candidate) => candidate.id === openId && candidate.messageId === m.id);
				if (open === undefined) throw notFound('Open not found');
				return ok(openEntry(ctx, m, open));
			},
		},
	});
	routes.add('GET', `${message}/tracked_events`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const m = messageOf(ctx);
				const url = `${ctx.links.message(m.listId, m.campaignType, m.campaignId, m.id)}/tracked_events`;
				const events = ctx.state.trackedEvents.filter((event) => event.messageId === m.id);
				return collectionPage(ctx, url, events, 'tracked_event', (event) => trackedEventEntry(ctx, m, event));
			},
		},
	});
	routes.add('GET', `${message}/tracked_events/:trackedEventId`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const m = messageOf(ctx);
				const eventId = intParam(ctx, 'trackedEventId', 'Tracked event');
				const event = ctx.state.trackedEvents.find((candidate) => candidate.id === eventId && candidate.messageId === m.id);
				if (event === undefined) throw notFound('Tracked event not found');
				return ok(trackedEventEntry(ctx, m, event));
			},
		},
	});
}
