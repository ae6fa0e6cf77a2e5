// Broadcasts: list by status, total, create / update / delete (form-encoded only), schedule, cancel, and the
// cursor-paged opens and clicks. State changes go through broadcast-lifecycle.ts. docs/aweber-behaviour.md#conventions.
import { randomUUID } from 'node:crypto';

import { broadcastDefaults } from '../broadcast-defaults';
import { assertEditable, cancel, schedule } from '../broadcast-lifecycle';
import { cursorPage, offsetPage } from '../collections';
import { badRequest, missingArgument, notFound } from '../errors';
import { formatTime, httpEtag } from '../links';
import type { BroadcastRecord } from '../state';
import {
	booleanField,
	intParam,
	jsonField,
	listOf,
	ok,
	requireForm,
	stringField,
	type ApiContext,
	type ApiResult,
	type ApiRoutes,
} from './context';
import { broadcastStats, campaignMessages, isBroadcastCampaign } from './campaigns';

const READ = 'email.read';
const WRITE = 'email.write';
const MAX_SUBJECT_LENGTH = 120;
const LISTED_STATUSES = ['draft', 'scheduled', 'sent'] as const;
/** The reference's broadcast operations answer an unknown list with this 404 type. */
const LIST_NOT_FOUND = 'ListNotFoundError';
type ListedStatus = (typeof LISTED_STATUSES)[number];

const BROADCAST_FIELDS = [
	'subject',
	'body_html',
	'body_text',
	'body_amp',
	'click_tracking_enabled',
	'is_archived',
	'notify_on_send',
	'include_lists',
	'exclude_lists',
	'facebook_integration',
	'twitter_integration',
	'segment_link',
];

function broadcastEntry(ctx: ApiContext, broadcast: BroadcastRecord): Record<string, unknown> {
	const { links, state } = ctx;
	const self = links.broadcast(broadcast.listId, broadcast.id);
	const segment = broadcast.segmentId === null ? undefined : state.segments.get(broadcast.segmentId);
	const listLink = links.list(broadcast.listId);
	const sent = broadcast.status === 'sent';
	const fields = {
		broadcast_id: broadcast.id,
		uuid: broadcast.uuid,
		status: broadcast.status,
		subject: broadcast.subject,
		body_html: broadcast.bodyHtml,
		body_text: broadcast.bodyText,
		body_amp: broadcast.bodyAmp,
		has_customized_body_text: broadcast.hasCustomizedBodyText,
		click_tracking_enabled: broadcast.clickTrackingEnabled,
		is_archived: broadcast.isArchived,
		archive_url: sent && broadcast.isArchived ? `https://archive.aweber.com/${state.list(broadcast.listId).uniqueListId}/${broadcast.uuid.slice(0, 8)}` : null,
		notify_on_send: broadcast.notifyOnSend,
		include_lists: broadcast.includeListIds.map((id) => links.list(id)),
		exclude_lists: broadcast.excludeListIds.map((id) => links.list(id)),
		facebook_integration: broadcast.facebookIntegrationId === null ? null : links.integration(broadcast.facebookIntegrationId),
		twitter_integration: broadcast.twitterIntegrationId === null ? null : links.integration(broadcast.twitterIntegrationId),
		segment_link: broadcast.segmentId === null ? null : links.segment(broadcast.listId, broadcast.segmentId),
		// A deleted segment reads "Unknown"; no segment means the default, all active subscribers.
		segment_name: broadcast.segmentId === null ? 'Active Subscribers' : (segment?.name ?? 'Unknown'),
		created_at: formatTime(broadcast.createdAt),
		scheduled_for: formatTime(broadcast.scheduledFor),
		sent_at: formatTime(broadcast.sentAt),
		stats: sent ? broadcastStats(state, broadcast) : null,
		links: [
			{ href: `https://archive.aweber.com/${state.list(broadcast.listId).uniqueListId}.rss`, rel: 'list_archive_rss_url' },
			{ href: `https://archive.aweber.com/${state.list(broadcast.listId).uniqueListId}`, rel: 'list_archive_url' },
		],
		opens_collection_link: `${self}/opens`,
		clicks_collection_link: `${self}/clicks`,
		list_link: listLink,
		self_link: self,
		resource_type_link: links.resourceType('broadcast'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

/** Collection entries are abbreviated (docs/aweber-behaviour.md#collections). */
function broadcastSummary(ctx: ApiContext, broadcast: BroadcastRecord): Record<string, unknown> {
	return {
		uuid: broadcast.uuid,
		broadcast_id: broadcast.id,
		self_link: ctx.links.broadcast(broadcast.listId, broadcast.id),
		status: broadcast.status,
		scheduled_for: formatTime(broadcast.scheduledFor),
		sent_at: formatTime(broadcast.sentAt),
		subject: broadcast.subject,
	};
}

function listedStatus(ctx: ApiContext): ListedStatus {
	const status = ctx.query.status;
	if (status === undefined || status === '') throw badRequest('The "status" parameter is required.', 'MissingStatusError');
	if (!(LISTED_STATUSES as readonly string[]).includes(status)) {
		throw badRequest(`Invalid status "${status}". Acceptable values are: draft, scheduled, sent.`, 'InvalidBroadcastStatusError');
	}
	return status as ListedStatus;
}

/** Drafts: API-created only, by id; scheduled: by time; sent: sending ones too, newest first. */
function broadcastsWithStatus(ctx: ApiContext, listId: number, status: ListedStatus): BroadcastRecord[] {
	const all = [...ctx.state.broadcasts.values()].filter((broadcast) => broadcast.listId === listId);
	if (status === 'draft') return all.filter((b) => b.status === 'draft' && b.createdByApi).sort((a, b) => a.id - b.id);
	if (status === 'scheduled') {
		return all.filter((b) => b.status === 'scheduled').sort((a, b) => (a.scheduledFor ?? 0) - (b.scheduledFor ?? 0));
	}
	return all.filter(isBroadcastCampaign).sort((a, b) => (b.sentAt ?? 0) - (a.sentAt ?? 0));
}

function broadcastOf(ctx: ApiContext): BroadcastRecord {
	const list = listOf(ctx, LIST_NOT_FOUND);
	const broadcast = ctx.state.broadcasts.get(intParam(ctx, 'broadcastId', 'Broadcast'));
	if (broadcast === undefined || broadcast.listId !== list.id) throw notFound('Broadcast not found', 'BroadcastNotFoundError');
	return broadcast;
}

function listLinks(ctx: ApiContext, name: string): number[] | undefined {
	if (ctx.body[name] === undefined) return undefined;
	const value = jsonField(ctx.body, name);
	if (!Array.isArray(value)) throw badRequest(`${name} must be a JSON-encoded list of list links.`, 'InvalidListURIError');
	return value.map((link) => {
		const listId = typeof link === 'string' ? ctx.links.parseListLink(link) : undefined;
		if (listId === undefined || !ctx.state.lists.has(listId)) throw badRequest(`Invalid list URI: ${String(link)}`, 'InvalidListURIError');
		return listId;
	});
}

function integrationLink(ctx: ApiContext, name: string, service: string): number | null | undefined {
	const link = stringField(ctx.body, name);
	if (link === undefined) return undefined;
	if (link === '') return null;
	const id = ctx.links.parseIntegrationLink(link);
	const integration = id === undefined ? undefined : ctx.state.integrations.get(id);
	if (integration === undefined || integration.serviceName !== service) {
		throw badRequest(`Invalid ${service} integration URI: ${link}`, 'InvalidIntegrationURIError');
	}
	return integration.id;
}

function segmentLink(ctx: ApiContext, listId: number): number | null | undefined {
	const link = stringField(ctx.body, 'segment_link');
	if (link === undefined) return undefined;
	if (link === '') return null;
	const parsed = ctx.links.parseSegmentLink(link);
	const segment = parsed === undefined ? undefined : ctx.state.segments.get(parsed.segmentId);
	if (parsed === undefined || segment === undefined || segment.listId !== listId || parsed.listId !== listId) {
		throw badRequest(`Invalid segment URI: ${link}`, 'InvalidSegmentURIError');
	}
	if (segment.isSplitTest) throw badRequest('Split test segments cannot be used for broadcasts.', 'SplitTestSegmentError');
	return segment.id;
}

function textFromHtml(html: string): string {
	return html
		.replace(/<(br|\/p|\/h\d|\/div|\/li)[^>]*>/gi, '\n')
		.replace(/<[^>]+>/g, '')
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

/** Applies the form fields of create / update; on create `subject` and a body are required. */
function applyBroadcastFields(ctx: ApiContext, broadcast: BroadcastRecord, creating: boolean): void {
	const { body } = ctx;
	for (const key of Object.keys(body)) {
		if (!BROADCAST_FIELDS.includes(key)) throw badRequest(`${key}: You tried to modify a nonexistent attribute.`, 'BadRequestError');
	}
	const subject = stringField(body, 'subject');
	if (subject === undefined && creating) throw missingArgument('subject');
	if (subject !== undefined) {
		if (subject.trim() === '') throw badRequest('The subject must not be empty.', 'InvalidSubjectError');
		if (subject.length > MAX_SUBJECT_LENGTH) {
			throw badRequest(`The subject must be at most ${MAX_SUBJECT_LENGTH} characters long.`, 'InvalidSubjectError');
		}
	}
	const bodyHtml = stringField(body, 'body_html');
	const bodyText = stringField(body, 'body_text');
	if (creating && (bodyHtml ?? '') === '' && (bodyText ?? '') === '') {
		throw badRequest('A broadcast needs body_html or body_text.', 'MissingBodyError');
	}
	const includeLists = listLinks(ctx, 'include_lists');
	const excludeLists = listLinks(ctx, 'exclude_lists');
	const facebook = integrationLink(ctx, 'facebook_integration', 'facebook');
	const twitter = integrationLink(ctx, 'twitter_integration', 'twitter');
	const segment = segmentLink(ctx, broadcast.listId);
	const clickTracking = booleanField(body, 'click_tracking_enabled');
	const isArchived = booleanField(body, 'is_archived');
	const notifyOnSend = booleanField(body, 'notify_on_send');

	if (subject !== undefined) broadcast.subject = subject;
	if (bodyHtml !== undefined) broadcast.bodyHtml = bodyHtml === '' ? null : bodyHtml;
	if (bodyText !== undefined) {
		broadcast.bodyText = bodyText === '' ? null : bodyText;
		broadcast.hasCustomizedBodyText = bodyText !== '';
	}
	// Without a text body AWeber generates one from the HTML.
	if (!broadcast.hasCustomizedBodyText && broadcast.bodyHtml !== null) broadcast.bodyText = textFromHtml(broadcast.bodyHtml);
	const bodyAmp = stringField(body, 'body_amp');
	if (bodyAmp !== undefined) broadcast.bodyAmp = bodyAmp === '' ? null : bodyAmp;
	if (includeLists !== undefined) broadcast.includeListIds = includeLists;
	if (excludeLists !== undefined) broadcast.excludeListIds = excludeLists;
	if (facebook !== undefined) broadcast.facebookIntegrationId = facebook;
	if (twitter !== undefined) broadcast.twitterIntegrationId = twitter;
	if (segment !== undefined) broadcast.segmentId = segment;
	if (clickTracking !== undefined) broadcast.clickTrackingEnabled = clickTracking;
	if (isArchived !== undefined) broadcast.isArchived = isArchived;
	if (notifyOnSend !== undefined) broadcast.notifyOnSend = notifyOnSend;
}

function createBroadcast(ctx: ApiContext): ApiResult {
	requireForm(ctx);
	const list = listOf(ctx, LIST_NOT_FOUND);
	const broadcast: BroadcastRecord = {
		id: ctx.state.nextId('broadcast'),
		uuid: randomUUID(),
		listId: list.id,
		...broadcastDefaults(),
		status: 'draft',
		subject: '',
		bodyHtml: null,
		bodyText: null,
		hasCustomizedBodyText: false,
		createdAt: ctx.clock.now(),
		spamAssassinScore: 0.5,
	};
	applyBroadcastFields(ctx, broadcast, true);
	ctx.state.broadcasts.set(broadcast.id, broadcast);
	// AWeber answers 200, not 201, with the whole broadcast.
	return ok(broadcastEntry(ctx, broadcast));
}

function updateBroadcast(ctx: ApiContext): ApiResult {
	requireForm(ctx);
	const broadcast = broadcastOf(ctx);
	assertEditable(broadcast, 'updated');
	// Validate on a copy so a rejected update changes nothing.
	const updated = { ...broadcast };
	applyBroadcastFields(ctx, updated, false);
	Object.assign(broadcast, updated);
	return ok(broadcastEntry(ctx, broadcast));
}

function deleteBroadcast(ctx: ApiContext): ApiResult {
	const list = listOf(ctx, LIST_NOT_FOUND);
	const broadcast = ctx.state.broadcasts.get(intParam(ctx, 'broadcastId', 'Broadcast'));
	// Deleting a broadcast that does not exist also answers 204 (AWeber changelog 1.0.37).
	if (broadcast !== undefined && broadcast.listId === list.id) {
		assertEditable(broadcast, 'deleted');
		ctx.state.broadcasts.delete(broadcast.id);
	}
	return { status: 204 };
}

function parseScheduledFor(raw: string | undefined): number {
	if (raw === undefined || raw.trim() === '') throw badRequest('The "scheduled_for" parameter is required.', 'MissingDatetimeError');
	const text = raw.trim();
	if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)) throw badRequest(`Invalid datetime: ${text}`, 'InvalidDatetimeError');
	// A time without a zone is UTC (AWeber's sample sends datetime.utcnow().isoformat()).
	const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
	const time = Date.parse(zoned.replace(' ', 'T'));
	if (Number.isNaN(time)) throw badRequest(`Invalid datetime: ${text}`, 'InvalidDatetimeError');
	// Microseconds and milliseconds are dropped.
	return Math.floor(time / 1000) * 1000;
}

function scheduleBroadcast(ctx: ApiContext): ApiResult {
	requireForm(ctx);
	const broadcast = broadcastOf(ctx);
	schedule(broadcast, parseScheduledFor(stringField(ctx.body, 'scheduled_for')), ctx.clock.now());
	return ok({ self_link: ctx.links.broadcast(broadcast.listId, broadcast.id) });
}

function cancelBroadcast(ctx: ApiContext): ApiResult {
	const broadcast = broadcastOf(ctx);
	cancel(broadcast);
	return ok({ self_link: ctx.links.broadcast(broadcast.listId, broadcast.id) });
}

interface OpenEvent {
	subscriberId: number;
	time: number;
	key: string;
}

function cursorKey(time: number, id: number): string {
	return `${new Date(time).toISOString().replace('T', ' ').replace('Z', '')}|${id}`;
}

function recipientEmail(ctx: ApiContext, subscriberId: number): Record<string, unknown> {
	// The address is only shown to tokens with subscriber.read.
	if (!ctx.scopes.includes('subscriber.read')) return {};
	return { email: ctx.state.subscribers.get(subscriberId)?.email ?? null };
}

function subscriberLink(ctx: ApiContext, subscriberId: number): string | null {
	const subscriber = ctx.state.subscribers.get(subscriberId);
	return subscriber === undefined ? null : ctx.links.subscriber(subscriber.listId, subscriber.id);
}

function messageIdsOf(ctx: ApiContext, broadcast: BroadcastRecord): Set<number> {
	return new Set(campaignMessages(ctx.state, 'b', broadcast.id).map((message) => message.id));
}

/** First open per subscriber, most recent first. */
function broadcastOpens(ctx: ApiContext): ApiResult {
	const broadcast = broadcastOf(ctx);
	const messageIds = messageIdsOf(ctx, broadcast);
	const firstOpens = new Map<number, OpenEvent>();
	for (const open of ctx.state.opens) {
		if (!messageIds.has(open.messageId)) continue;
		const seen = firstOpens.get(open.subscriberId);
		if (seen === undefined || open.eventTime < seen.time) {
			firstOpens.set(open.subscriberId, { subscriberId: open.subscriberId, time: open.eventTime, key: cursorKey(open.eventTime, open.id) });
		}
	}
	const items = [...firstOpens.values()].sort((a, b) => b.time - a.time || b.key.localeCompare(a.key));
	return ok(
		cursorPage({
			url: `${ctx.links.broadcast(broadcast.listId, broadcast.id)}/opens`,
			query: ctx.query,
			items,
			keyOf: (item) => item.key,
			render: (item) => ({
				...recipientEmail(ctx, item.subscriberId),
				event_time: formatTime(item.time),
				subscriber_link: subscriberLink(ctx, item.subscriberId),
				type: 'open',
				resource_type_link: ctx.links.resourceType('open'),
			}),
			entryType: 'open',
			resourceTypeBase: `${ctx.links.api}/`,
		}),
	);
}

/** Clicks aggregated per subscriber, or with `detailed=true` one entry per click with its URL. */
function broadcastClicks(ctx: ApiContext): ApiResult {
	const broadcast = broadcastOf(ctx);
	const messageIds = messageIdsOf(ctx, broadcast);
	const clicks = ctx.state.clicks.filter((click) => messageIds.has(click.messageId));
	const detailedRaw = ctx.query.detailed;
	if (detailedRaw !== undefined && detailedRaw !== 'true' && detailedRaw !== 'false') {
		throw badRequest('detailed: Value must be true or false.');
	}
	const url = `${ctx.links.broadcast(broadcast.listId, broadcast.id)}/clicks`;
	const resourceTypeBase = `${ctx.links.api}/`;
	if (detailedRaw === 'true') {
		const items = [...clicks].sort((a, b) => b.eventTime - a.eventTime || b.id - a.id);
		return ok(
			cursorPage({
				url,
				query: ctx.query,
				items,
				keyOf: (click) => cursorKey(click.eventTime, click.id),
				render: (click) => ({
					...recipientEmail(ctx, click.subscriberId),
					event_time: formatTime(click.eventTime),
					clicked_at: formatTime(click.eventTime),
					url: click.url,
					subscriber_link: subscriberLink(ctx, click.subscriberId),
					type: 'click',
					resource_type_link: ctx.links.resourceType('click'),
				}),
				entryType: 'click',
				resourceTypeBase,
			}),
		);
	}
	// BroadcastClicks: event_time is the subscriber's first click, and entries are most recent first by it.
	const bySubscriber = new Map<number, { subscriberId: number; first: number; last: number; total: number; firstId: number }>();
	for (const click of clicks) {
		const entry = bySubscriber.get(click.subscriberId) ?? { subscriberId: click.subscriberId, first: click.eventTime, last: click.eventTime, total: 0, firstId: click.id };
		entry.total++;
		if (click.eventTime < entry.first) {
			entry.first = click.eventTime;
			entry.firstId = click.id;
		}
		entry.last = Math.max(entry.last, click.eventTime);
		bySubscriber.set(click.subscriberId, entry);
	}
	const items = [...bySubscriber.values()].sort((a, b) => b.first - a.first || b.firstId - a.firstId);
	return ok(
		cursorPage({
			url,
			query: ctx.query,
			items,
			keyOf: (item) => cursorKey(item.first, item.firstId),
			render: (item) => ({
				...recipientEmail(ctx, item.subscriberId),
				event_time: formatTime(item.first),
				first_click_at: formatTime(item.first),
				last_click_at: formatTime(item.last),
				total_clicks: item.total,
				subscriber_link: subscriberLink(ctx, item.subscriberId),
				type: 'click',
				resource_type_link: ctx.links.resourceType('click'),
			}),
			entryType: 'click',
			resourceTypeBase,
		}),
	);
}

export function registerBroadcastRoutes(routes: ApiRoutes): void {
	const collection = '/accounts/:accountId/lists/:listId/broadcasts';
	const entry = `${collection}/:broadcastId`;
	routes.add('GET', collection, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const list = listOf(ctx, LIST_NOT_FOUND);
				const status = listedStatus(ctx);
				return ok(
					offsetPage({
						url: `${ctx.links.list(list.id)}/broadcasts`,
						query: ctx.query,
						items: broadcastsWithStatus(ctx, list.id, status),
						render: (broadcast) => broadcastSummary(ctx, broadcast),
						entryType: 'broadcast',
						totalKind: 'total_size_link',
						resourceTypeBase: `${ctx.links.api}/`,
						// The reference's Broadcasts collection carries self_link.
						selfLink: true,
					}),
				);
			},
		},
	});
	routes.add('POST', collection, { plain: { scope: WRITE, handle: createBroadcast } });
	routes.add('GET', `${collection}/total`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const list = listOf(ctx, LIST_NOT_FOUND);
				return ok({ total_size: broadcastsWithStatus(ctx, list.id, listedStatus(ctx)).length });
			},
		},
	});
	routes.add('GET', entry, { plain: { scope: READ, handle: (ctx) => ok(broadcastEntry(ctx, broadcastOf(ctx))) } });
	routes.add('PUT', entry, { plain: { scope: WRITE, handle: updateBroadcast } });
	routes.add('DELETE', entry, { plain: { scope: WRITE, handle: deleteBroadcast } });
	routes.add('POST', `${entry}/schedule`, { plain: { scope: WRITE, handle: scheduleBroadcast } });
	routes.add('POST', `${entry}/cancel`, { plain: { scope: WRITE, handle: cancelBroadcast } });
	routes.add('GET', `${entry}/opens`, { plain: { scope: READ, handle: broadcastOpens } });
	routes.add('GET', `${entry}/clicks`, { plain: { scope: READ, handle: broadcastClicks } });
}
