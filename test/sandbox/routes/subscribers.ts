// Subscribers: get, find, add (update_existing), update / delete by id and by email, move, activity,
// purchases. docs/aweber-behaviour.md#conventions.
import { isIP } from 'node:net';

import { offsetPage } from '../collections';
import { badRequest, forbidden, methodNotAllowed, missingArgument, notFound } from '../errors';
import { formatTime, httpEtag, type Links } from '../links';
import type { ListRecord, SandboxState, SubscriberRecord, SubscriberStatus } from '../state';
import {
	accepted,
	booleanField,
	checkLength,
	contentModified,
	created,
	intParam,
	jsonField,
	listOf,
	ok,
	requireContentType,
	requireJsonOrForm,
	stringField,
	type ApiContext,
	type ApiResult,
	type ApiRoutes,
} from './context';
import { collectionPage } from './collectionPage';
import { trackedEventFields } from './trackedEventFields';

const READ = 'subscriber.read';
const WRITE = 'subscriber.write';

const MAX_EMAIL_LENGTH = 50;
const MAX_FOLLOWUP_NUMBER = 1001;

export function subscriberFields(ctx: ApiContext, subscriber: SubscriberRecord): Record<string, unknown> {
	const { links, state } = ctx;
	return {
		id: subscriber.id,
		uuid: subscriber.uuid,
		email: subscriber.email,
		name: subscriber.name,
		status: subscriber.status,
		is_verified: subscriber.isVerified,
		verified_at: formatTime(subscriber.verifiedAt),
		subscribed_at: formatTime(subscriber.subscribedAt),
		subscription_method: subscriber.subscriptionMethod,
		subscription_url: subscriber.subscriptionUrl,
		unsubscribed_at: formatTime(subscriber.unsubscribedAt),
		unsubscribe_method: subscriber.unsubscribeMethod,
		ad_tracking: subscriber.adTracking,
		misc_notes: subscriber.miscNotes,
		custom_fields: customFieldValues(state, subscriber),
		tags: [...subscriber.tags],
		ip_address: subscriber.ipAddress,
		...subscriber.geo,
		last_followup_message_number_sent: subscriber.lastFollowupMessageNumberSent,
		last_followup_sent_at: formatTime(subscriber.lastFollowupSentAt),
		last_followup_sent_link: null,
		self_link: links.subscriber(subscriber.listId, subscriber.id),
		resource_type_link: links.resourceType('subscriber'),
	};
}

export function subscriberEntry(ctx: ApiContext, subscriber: SubscriberRecord): Record<string, unknown> {
	const fields = subscriberFields(ctx, subscriber);
	return { ...fields, http_etag: httpEtag(fields) };
}

/** Find results carry the list and no http_etag (AWeber changelog 1.0.29-1.0.33). */
function foundSubscriberEntry(ctx: ApiContext, subscriber: SubscriberRecord): Record<string, unknown> {
	return {
		...subscriberFields(ctx, subscriber),
		list_link: ctx.links.list(subscriber.listId),
		list_name: ctx.state.list(subscriber.listId).name,
	};
}

function customFieldValues(state: SandboxState, subscriber: SubscriberRecord): Record<string, string | null> {
	// Field names are data: a field named `__proto__` is a field like any other.
	const values = Object.create(null) as Record<string, string | null>;
	for (const field of state.customFieldsOf(subscriber.listId)) {
		values[field.name] = subscriber.customFields.get(field.id) ?? null;
	}
	return values;
}

/** The webhook payload of a subscriber event (docs/aweber-behaviour.md#webhook-signing). */
export function webhookPayload(state: SandboxState, links: Links, subscriber: SubscriberRecord): Record<string, unknown> {
	const list = state.list(subscriber.listId);
	const hasLocation = subscriber.geo.city !== null || subscriber.geo.country !== null;
	return {
		account: state.account.uuid,
		list: list.uuid,
		id: subscriber.uuid,
		email: subscriber.email,
		name: subscriber.name,
		status: subscriber.status,
		ad_tracking: subscriber.adTracking,
		custom_fields: customFieldValues(state, subscriber),
		misc_notes: subscriber.miscNotes,
		signup_ip: subscriber.ipAddress,
		signup_location: hasLocation
			? {
					city: subscriber.geo.city,
					country_code: subscriber.geo.country === null ? null : subscriber.geo.country.slice(0, 2).toUpperCase(),
					country_name: subscriber.geo.country,
					latitude: subscriber.geo.latitude,
					longitude: subscriber.geo.longitude,
					metro_code: subscriber.geo.dma_code,
					postal_code: subscriber.geo.postal_code,
					region_code: subscriber.geo.region,
					region_name: subscriber.geo.region,
				}
			: null,
		subscribed_at: formatTime(subscriber.subscribedAt),
		subscription_method: subscriber.subscriptionMethod,
		subscription_url: subscriber.subscriptionUrl,
		tags: [...subscriber.tags],
		unsubscribe_method: subscriber.unsubscribeMethod,
		unsubscribed_at: formatTime(subscriber.unsubscribedAt),
		verified_at: formatTime(subscriber.verifiedAt),
		links: {
			account: links.account(),
			list: links.list(subscriber.listId),
			subscriber: links.subscriber(subscriber.listId, subscriber.id),
		},
	};
}

// ---- field validation shared by add, update, move and purchases ----

function validEmail(email: string): string {
	const trimmed = email.trim();
	if (trimmed.length > MAX_EMAIL_LENGTH) throw badRequest(`email: Value must be at most ${MAX_EMAIL_LENGTH} characters long.`);
	if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) throw badRequest(`Invalid email address: ${trimmed}`);
	return trimmed;
}

const RESERVED_IPV4 = [/^0\./, /^10\./, /^127\./, /^169\.254\./, /^172\.(1[6-9]|2\d|3[01])\./, /^192\.168\./, /^(22[4-9]|2[3-5]\d)\./];

function validIpAddress(ip: string): string {
	const kind = isIP(ip);
	if (kind === 0) throw badRequest('Invalid Subscriber IP address.');
	const reserved =
		kind === 4 ? RESERVED_IPV4.some((pattern) => pattern.test(ip)) : /^(::1?$|f[cd]|fe80)/i.test(ip);
	if (reserved) throw badRequest('Invalid Subscriber IP address. The address is part of a reserved block.');
	return ip;
}

function followupNumber(body: Record<string, unknown>): number | undefined {
	const raw = stringField(body, 'last_followup_message_number_sent');
	if (raw === undefined) return undefined;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < 0 || value > MAX_FOLLOWUP_NUMBER) {
		throw badRequest(`last_followup_message_number_sent: Value must be between 0 and ${MAX_FOLLOWUP_NUMBER}.`);
	}
	return value;
}

function tagList(value: unknown, name = 'tags'): string[] {
	if (value === undefined || value === null) return [];
	const values = typeof value === 'string' ? [value] : value;
	if (!Array.isArray(values) || values.some((tag) => typeof tag !== 'string')) {
		throw badRequest(`${name}: Value must be a list of strings.`, 'InvalidTypeError');
	}
	return [...new Set(values.map((tag: string) => tag.trim()).filter((tag) => tag !== ''))];
}

/** Form bodies may carry tags as a JSON array string or as repeated fields. */
function tagsField(body: Record<string, unknown>): string[] | undefined {
	if (body.tags === undefined) return undefined;
	const raw = body.tags;
	if (typeof raw === 'string' && raw.trim().startsWith('[')) return tagList(jsonField(body, 'tags'));
	return tagList(raw);
}

function customFieldInput(body: Record<string, unknown>): Record<string, unknown> | undefined {
	if (body.custom_fields === undefined) return undefined;
	const value = jsonField(body, 'custom_fields');
	if (value === null) return {};
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw badRequest('custom_fields: Value must be an object.', 'InvalidTypeError');
	}
	return value as Record<string, unknown>;
}

/**
 * Resolves custom field names to the list's fields: case-insensitively and ignoring unknown names, or,
 * with strict_custom_fields, case-sensitively and failing on an unknown name (docs/aweber-behaviour.md#custom-fields-on-patch).
 */
function resolveCustomFields(
	state: SandboxState,
	listId: number,
	input: Record<string, unknown>,
	strict: boolean,
): Map<number, string | null> {
	const fields = state.customFieldsOf(listId);
	const resolved = new Map<number, string | null>();
	for (const [name, value] of Object.entries(input)) {
		const field = strict
			? fields.find((candidate) => candidate.name === name)
			: fields.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
		if (field === undefined) {
			if (strict) throw badRequest(`Invalid custom field: "${name}" does not exist on this list.`);
			continue;
		}
		if (value !== null && typeof value === 'object') {
			throw badRequest(`custom_fields: Value of "${name}" must be a string.`, 'InvalidTypeError');
		}
		const text = value === null ? null : String(value);
		checkLength(`custom_fields.${name}`, text ?? undefined, 100);
		resolved.set(field.id, text);
	}
	return resolved;
}

function checkFields(body: Record<string, unknown>, allowed: readonly string[], readOnly: readonly string[]): void {
	for (const key of Object.keys(body)) {
		if (allowed.includes(key)) continue;
		if (readOnly.includes(key)) throw badRequest(`${key}: You tried to modify a read-only attribute.`, 'BadRequestError');
		throw badRequest(`${key}: You tried to modify a nonexistent attribute.`, 'BadRequestError');
	}
}

const READ_ONLY_FIELDS = [
	'id',
	'uuid',
	'is_verified',
	'verified_at',
	'subscribed_at',
	'subscription_method',
	'subscription_url',
	'unsubscribed_at',
	'unsubscribe_method',
	'self_link',
	'resource_type_link',
	'http_etag',
	'ip_address',
	'area_code',
	'city',
	'country',
	'dma_code',
	'latitude',
	'longitude',
	'postal_code',
	'region',
	'last_followup_sent_at',
	'last_followup_sent_link',
];

// AWeber ignores `status` on add: the list's opt-in setting decides it (docs/aweber-behaviour.md#add-subscriber).
const ADD_FIELDS = [
	'ws.op',
	'email',
	'name',
	'ad_tracking',
	'custom_fields',
	'ip_address',
	'last_followup_message_number_sent',
	'misc_notes',
	'strict_custom_fields',
	'update_existing',
	'tags',
	'status',
];

const UPDATE_FIELDS = [
	'ad_tracking',
	'custom_fields',
	'email',
	'last_followup_message_number_sent',
	'misc_notes',
	'name',
	'status',
	'strict_custom_fields',
	'tags',
];

interface CommonFields {
	name?: string;
	adTracking?: string;
	miscNotes?: string;
	followup?: number;
}

function commonFields(body: Record<string, unknown>): CommonFields {
	const name = stringField(body, 'name');
	const adTracking = stringField(body, 'ad_tracking')?.toLowerCase();
	const miscNotes = stringField(body, 'misc_notes');
	checkLength('name', name, 60);
	checkLength('ad_tracking', adTracking, 20);
	checkLength('misc_notes', miscNotes, 60);
	return { name, adTracking, miscNotes, followup: followupNumber(body) };
}

function applyCommonFields(subscriber: SubscriberRecord, fields: CommonFields): void {
	if (fields.name !== undefined) subscriber.name = fields.name;
	if (fields.adTracking !== undefined) subscriber.adTracking = fields.adTracking;
	if (fields.miscNotes !== undefined) subscriber.miscNotes = fields.miscNotes;
	if (fields.followup !== undefined) subscriber.lastFollowupMessageNumberSent = fields.followup;
}

function appendTags(subscriber: SubscriberRecord, tags: string[]): void {
	for (const tag of tags) if (!subscriber.tags.includes(tag)) subscriber.tags.push(tag);
}

/** A new subscriber on a list: `unconfirmed` on confirmed opt-in lists, else `subscribed`; webhooks follow. */
export function addToList(ctx: ApiContext, list: ListRecord, subscriber: SubscriberRecord): void {
	subscriber.status = list.confirmedOptIn ? 'unconfirmed' : 'subscribed';
	ctx.state.insertSubscriber(subscriber);
	ctx.emit('subscriber.added', subscriber);
	if (subscriber.status === 'subscribed') ctx.emit('subscriber.subscribed', subscriber);
}

function setStatus(ctx: ApiContext, subscriber: SubscriberRecord, status: SubscriberStatus, method: string): void {
	if (subscriber.status === status) return;
	subscriber.status = status;
	if (status === 'unsubscribed') {
		subscriber.unsubscribedAt = ctx.clock.now();
		subscriber.unsubscribeMethod = method;
		ctx.emit('subscriber.unsubscribed', subscriber);
	} else if (status === 'subscribed') {
		subscriber.unsubscribedAt = null;
		subscriber.unsubscribeMethod = null;
		ctx.emit('subscriber.subscribed', subscriber);
	}
}

// ---- account standing (docs/aweber-behaviour.md#account-standing) ----

export const ACCOUNT_ON_HOLD_MESSAGE = 'This account is on hold. Changes to subscribers cannot be made at this time.';
export const SUBSCRIBER_LIMIT_MESSAGE = "Subscriber limit reached. Upgrade the account's plan to add subscribers.";
export const EMAIL_NOT_ACCEPTED_MESSAGE = 'This email address cannot be accepted at this time.';

/** A held account refuses every change to subscribers (403). */
function checkAccountAcceptsChanges(ctx: ApiContext): void {
	if (ctx.state.account.standing === 'on-hold') throw forbidden(ACCOUNT_ON_HOLD_MESSAGE);
}

/** A new subscriber: refused on a held account, at the subscriber limit, or for an address AWeber will not take now. */
function checkAccountAcceptsNewSubscriber(ctx: ApiContext, email: string): void {
	checkAccountAcceptsChanges(ctx);
	if (ctx.state.account.standing === 'subscriber-limit') throw forbidden(SUBSCRIBER_LIMIT_MESSAGE);
	if (ctx.state.account.refusedEmails?.includes(email.toLowerCase())) throw forbidden(EMAIL_NOT_ACCEPTED_MESSAGE);
}

// ---- operations ----

function addSubscriber(ctx: ApiContext): ApiResult {
	requireContentType(ctx);
	requireJsonOrForm(ctx);
	const list = listOf(ctx);
	const { body, state, links } = ctx;
	checkFields(body, ADD_FIELDS, READ_ONLY_FIELDS);
	const rawEmail = stringField(body, 'email');
	if (rawEmail === undefined || rawEmail.trim() === '') throw missingArgument('email');
	const email = validEmail(rawEmail);
	const fields = commonFields(body);
	const tags = tagsField(body) ?? [];
	const strict = booleanField(body, 'strict_custom_fields') ?? false;
	const customFields = resolveCustomFields(state, list.id, customFieldInput(body) ?? {}, strict);
	const ipRaw = stringField(body, 'ip_address');
	const ipAddress = ipRaw === undefined ? undefined : validIpAddress(ipRaw);

	const existing = state.subscriberByEmail(list.id, email);
	if (existing === undefined) checkAccountAcceptsNewSubscriber(ctx, email);
	else checkAccountAcceptsChanges(ctx);
	if (existing !== undefined) {
		if (booleanField(body, 'update_existing') !== true) {
			throw badRequest(`${existing.email} is already subscribed to this list.`);
		}
		// update_existing applies the updatable fields, merges custom fields and appends tags.
		applyCommonFields(existing, fields);
		for (const [fieldId, value] of customFields) existing.customFields.set(fieldId, value);
		appendTags(existing, tags);
		return created(links.subscriber(list.id, existing.id));
	}

	const subscriber = state.newSubscriber(list.id, email, ctx.clock.now());
	applyCommonFields(subscriber, fields);
	subscriber.customFields = customFields;
	subscriber.tags = tags;
	subscriber.ipAddress = ipAddress ?? null;
	addToList(ctx, list, subscriber);
	return created(links.subscriber(list.id, subscriber.id));
}

function updateSubscriber(ctx: ApiContext, subscriber: SubscriberRecord): ApiResult {
	requireJsonOrForm(ctx);
	checkAccountAcceptsChanges(ctx);
	const { body, state } = ctx;
	checkFields(body, UPDATE_FIELDS, READ_ONLY_FIELDS);
	const fields = commonFields(body);

	const rawEmail = stringField(body, 'email');
	let email: string | undefined;
	if (rawEmail !== undefined) {
		email = validEmail(rawEmail);
		const other = state.subscriberByEmail(subscriber.listId, email);
		if (other !== undefined && other !== subscriber) throw badRequest('Email address is already subscribed.');
	}

	const statusRaw = stringField(body, 'status');
	if (statusRaw !== undefined && statusRaw !== 'subscribed' && statusRaw !== 'unsubscribed') {
		throw badRequest(`status: Invalid value "${statusRaw}". Acceptable values are: subscribed, unsubscribed.`);
	}

	let tagChanges: { add: string[]; remove: string[] } | undefined;
	if (body.tags !== undefined) {
		const tags = jsonField(body, 'tags');
		if (tags === null || typeof tags !== 'object' || Array.isArray(tags)) {
			throw badRequest('tags: Value must be an object with "add" and/or "remove" lists.', 'InvalidTypeError');
		}
		const { add, remove } = tags as { add?: unknown; remove?: unknown };
		tagChanges = { add: tagList(add, 'tags.add'), remove: tagList(remove, 'tags.remove') };
	}

	// AWeber replaces the whole custom_fields object: a field not sent (or no custom_fields at all) becomes null.
	const strict = booleanField(body, 'strict_custom_fields') ?? false;
	const customFields = resolveCustomFields(state, subscriber.listId, customFieldInput(body) ?? {}, strict);

	applyCommonFields(subscriber, fields);
	if (email !== undefined) subscriber.email = email;
	subscriber.customFields = customFields;
	if (tagChanges !== undefined) {
		const removed = new Set(tagChanges.remove);
		subscriber.tags = subscriber.tags.filter((tag) => !removed.has(tag));
		appendTags(subscriber, tagChanges.add.filter((tag) => !removed.has(tag)));
	}
	if (statusRaw !== undefined) setStatus(ctx, subscriber, statusRaw as SubscriberStatus, 'api: unsubscribe');
	return contentModified(subscriberEntry(ctx, subscriber));
}

function deletable(subscriber: SubscriberRecord): SubscriberRecord {
	if (subscriber.status === 'unconfirmed') throw methodNotAllowed('Unconfirmed subscribers cannot be deleted.');
	return subscriber;
}

function subscriberOf(ctx: ApiContext): SubscriberRecord {
	const list = listOf(ctx);
	return ctx.state.subscriber(list.id, intParam(ctx, 'subscriberId', 'Subscriber'));
}

function subscriberByEmailParam(ctx: ApiContext): SubscriberRecord {
	const list = listOf(ctx);
	const email = ctx.query.subscriber_email;
	if (email === undefined || email.trim() === '') throw missingArgument('subscriber_email');
	const subscriber = ctx.state.subscriberByEmail(list.id, email);
	if (subscriber === undefined) throw notFound('Subscriber not found');
	return subscriber;
}

function moveSubscriber(ctx: ApiContext): ApiResult {
	checkAccountAcceptsChanges(ctx);
	const { body, state, links } = ctx;
	const origin = subscriberOf(ctx);
	const listLink = stringField(body, 'list_link');
	if (listLink === undefined || listLink === '') throw missingArgument('list_link');
	const destinationId = links.parseListLink(listLink);
	if (destinationId === undefined) throw badRequest(`Invalid list_link: ${listLink}`);
	const destination = state.list(destinationId);
	if (origin.status !== 'subscribed') {
		throw methodNotAllowed(`${origin.status === 'unconfirmed' ? 'Unconfirmed' : 'Unsubscribed'} subscribers cannot be moved.`);
	}
	if (state.subscriberByEmail(destination.id, origin.email) !== undefined) {
		throw methodNotAllowed('Subscriber already belongs to this list.');
	}
	const followup = followupNumber(body);

	// Custom field values follow their field names, matched case-insensitively on the destination list.
	const destinationFields = state.customFieldsOf(destination.id);
	const movedValues = new Map<number, string | null>();
	for (const field of state.customFieldsOf(origin.listId)) {
		const value = origin.customFields.get(field.id) ?? null;
		const target = destinationFields.find((candidate) => candidate.name.toLowerCase() === field.name.toLowerCase());
		if (target === undefined) {
			if (booleanField(body, 'enforce_custom_field_mapping') === true && value !== null) {
				throw badRequest(`Custom field "${field.name}" does not exist on the destination list.`);
			}
			continue;
		}
		movedValues.set(target.id, value);
	}

	const moved = state.newSubscriber(destination.id, origin.email, ctx.clock.now());
	moved.name = origin.name;
	moved.adTracking = origin.adTracking;
	moved.miscNotes = origin.miscNotes;
	moved.tags = [...origin.tags];
	moved.ipAddress = origin.ipAddress;
	moved.geo = { ...origin.geo };
	moved.isVerified = origin.isVerified;
	moved.verifiedAt = origin.verifiedAt;
	moved.customFields = movedValues;
	moved.lastFollowupMessageNumberSent = followup ?? 0;
	setStatus(ctx, origin, 'unsubscribed', 'api: move');
	state.insertSubscriber(moved);
	ctx.emit('subscriber.added', moved);
	ctx.emit('subscriber.subscribed', moved);
	return created(links.subscriber(destination.id, moved.id));
}

const FILTER_EXACT_FIELDS: Record<string, (subscriber: SubscriberRecord) => unknown> = {
	name: (s) => s.name,
	status: (s) => s.status,
	ad_tracking: (s) => s.adTracking,
	misc_notes: (s) => s.miscNotes,
	subscription_method: (s) => s.subscriptionMethod,
	unsubscribe_method: (s) => s.unsubscribeMethod,
	area_code: (s) => s.geo.area_code,
	city: (s) => s.geo.city,
	country: (s) => s.geo.country,
	dma_code: (s) => s.geo.dma_code,
	latitude: (s) => s.geo.latitude,
	longitude: (s) => s.geo.longitude,
	postal_code: (s) => s.geo.postal_code,
	region: (s) => s.geo.region,
	last_followup_message_number_sent: (s) => s.lastFollowupMessageNumberSent,
};

const DAY_MS = 86_400_000;

function parseDateParam(name: string, value: string): number {
	const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
	if (Number.isNaN(time)) throw badRequest(`${name}: Invalid date "${value}".`);
	return time;
}

type TimeOf = (subscriber: SubscriberRecord) => number | null;

const FILTER_DATE_FIELDS: Record<string, { time: TimeOf; compare: 'day' | 'after' | 'before' }> = {
	subscribed_at: { time: (s) => s.subscribedAt, compare: 'day' },
	subscribed_after: { time: (s) => s.subscribedAt, compare: 'after' },
	subscribed_before: { time: (s) => s.subscribedAt, compare: 'before' },
	unsubscribed_at: { time: (s) => s.unsubscribedAt, compare: 'day' },
	unsubscribed_after: { time: (s) => s.unsubscribedAt, compare: 'after' },
	unsubscribed_before: { time: (s) => s.unsubscribedAt, compare: 'before' },
	verified_at: { time: (s) => s.verifiedAt, compare: 'day' },
	last_followup_message_sent_at: { time: (s) => s.lastFollowupSentAt, compare: 'day' },
};

type SubscriberFilter = (subscriber: SubscriberRecord) => boolean;

/** The search filters of `find` and `findSubscribers` (docs/aweber-behaviour.md#conventions). */
function subscriberFilters(ctx: ApiContext): SubscriberFilter[] {
	const { query, state } = ctx;
	const filters: SubscriberFilter[] = [];
	if (query.email !== undefined) {
		const email = query.email.trim().toLowerCase();
		filters.push((s) => s.email.toLowerCase() === email);
	}
	for (const [name, valueOf] of Object.entries(FILTER_EXACT_FIELDS)) {
		const wanted = query[name];
		if (wanted !== undefined) filters.push((s) => String(valueOf(s) ?? '') === wanted);
	}
	for (const [name, { time, compare }] of Object.entries(FILTER_DATE_FIELDS)) {
		if (query[name] === undefined) continue;
		const at = parseDateParam(name, query[name]);
		filters.push((s) => {
			const value = time(s);
			if (value === null) return false;
			if (compare === 'after') return value >= at;
			if (compare === 'before') return value < at;
			return value >= at && value < at + DAY_MS;
		});
	}
	if (query.tags !== undefined) {
		const tags = tagList(jsonField(query, 'tags'));
		filters.push((s) => tags.every((tag) => s.tags.includes(tag)));
	}
	if (query.tags_not_in !== undefined) {
		const tags = tagList(jsonField(query, 'tags_not_in'), 'tags_not_in');
		filters.push((s) => !tags.some((tag) => s.tags.includes(tag)));
	}
	if (query.custom_fields !== undefined) {
		const wanted = jsonField(query, 'custom_fields');
		if (wanted === null || typeof wanted !== 'object' || Array.isArray(wanted)) {
			throw badRequest('custom_fields: Value must be an object.', 'InvalidTypeError');
		}
		const pairs = Object.entries(wanted as Record<string, unknown>);
		filters.push((s) => {
			const values = customFieldValues(state, s);
			return pairs.every(([name, value]) => {
				const key = Object.keys(values).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
				return key !== undefined && values[key] === (value === null ? null : String(value));
			});
		});
	}
	return filters;
}

function sortedSubscribers(ctx: ApiContext, subscribers: SubscriberRecord[]): SubscriberRecord[] {
	const { query } = ctx;
	const order = query.sort_order ?? 'asc';
	if (order !== 'asc' && order !== 'desc') throw badRequest('sort_order: must be "asc" or "desc".');
	const key = query.sort_key;
	if (key !== undefined && key !== 'subscribed_at' && key !== 'unsubscribed_at') {
		throw badRequest('sort_key: must be "subscribed_at" or "unsubscribed_at".');
	}
	let sorted = subscribers;
	if (key === 'unsubscribed_at') {
		sorted = [...subscribers].sort((a, b) => (a.unsubscribedAt ?? 0) - (b.unsubscribedAt ?? 0));
	} else if (key === 'subscribed_at') {
		sorted = [...subscribers].sort((a, b) => a.subscribedAt - b.subscribedAt);
	}
	return order === 'desc' ? [...sorted].reverse() : sorted;
}

function findSubscribers(ctx: ApiContext, candidates: SubscriberRecord[], url: string): object | number {
	const filters = subscriberFilters(ctx);
	const found = candidates.filter((subscriber) => filters.every((filter) => filter(subscriber)));
	return offsetPage({
		url,
		query: ctx.query,
		items: sortedSubscribers(ctx, found),
		render: (subscriber) => foundSubscriberEntry(ctx, subscriber),
		entryType: 'subscriber',
		totalKind: 'total_size_link',
		resourceTypeBase: `${ctx.links.api}/`,
		selfLink: true,
	});
}

/** Account-wide search (ws.op=findSubscribers on the account), list by list. */
export function findSubscribersOnAccount(ctx: ApiContext): ApiResult {
	const candidates = [...ctx.state.lists.keys()]
		.sort((a, b) => a - b)
		.flatMap((listId) => ctx.state.subscribersOf(listId));
	return ok(findSubscribers(ctx, candidates, ctx.links.account()));
}

function activity(ctx: ApiContext): ApiResult {
	const subscriber = subscriberOf(ctx);
	const { state, links } = ctx;
	const subscriberLink = links.subscriber(subscriber.listId, subscriber.id);
	const entries: Array<{ time: number; entry: Record<string, unknown> }> = [];
	const push = (time: number | null, type: string, id: number | string, selfLink: string | null, extra = {}) => {
		if (time === null) return;
		const fields = {
			event_time: formatTime(time),
			id,
			type,
			subscriber_link: subscriberLink,
			self_link: selfLink,
			resource_type_link: links.resourceType('subscriber_activity'),
			...extra,
		};
		entries.push({ time, entry: { ...fields, http_etag: httpEtag(fields) } });
	};
	push(subscriber.subscribedAt, 'subscribed', 'subscribed', null);
	push(subscriber.verifiedAt, 'verified', 'verified', null);
	const messageLink = (messageId: number) => {
		const message = state.messages.get(messageId);
		return message === undefined
			? null
			: links.message(message.listId, message.campaignType, message.campaignId, message.id);
	};
	for (const message of state.messages.values()) {
		if (message.subscriberId === subscriber.id) push(message.eventTime, 'sent_message', message.id, messageLink(message.id));
	}
	for (const open of state.opens) {
		if (open.subscriberId !== subscriber.id) continue;
		const link = messageLink(open.messageId);
		push(open.eventTime, 'open', open.id, link === null ? null : `${link}/opens/${open.id}`);
	}
	for (const click of state.clicks) {
		if (click.subscriberId === subscriber.id) push(click.eventTime, 'click', click.id, null, { url: click.url });
	}
	for (const event of state.trackedEvents) {
		if (event.subscriberId !== subscriber.id) continue;
		const link = event.messageId === null ? null : messageLink(event.messageId);
		push(event.eventTime, 'tracked_event', event.id, link === null ? null : `${link}/tracked_events/${event.id}`, {
			event_type: event.type,
			...trackedEventFields(event),
		});
	}
	entries.sort((a, b) => b.time - a.time);
	return collectionPage(ctx, subscriberLink, entries, 'subscriber_activity', (item) => item.entry, 'total_size_link');
}

const PURCHASE_REQUIRED = ['email', 'ip_address', 'vendor', 'product_name', 'event_note', 'currency', 'value', 'event_time', 'url'];

/** Records a sale as a tracked event, creating the subscriber when the address is not on the list yet. */
function createPurchase(ctx: ApiContext): ApiResult {
	requireJsonOrForm(ctx);
	const list = listOf(ctx);
	const { body, state, links } = ctx;
	// The purchase operation's 400 table lists one type for a problem with the body, BadRequestError, with the
	// message "Missing required argument(s)" (docs/aweber-behaviour.md#errors); not add-subscriber's
	// MissingArgumentError or InvalidTypeError.
	for (const name of PURCHASE_REQUIRED) {
		const value = stringField(body, name);
		if (value === undefined || value.trim() === '') throw badRequest(`Missing required argument(s): ${name}`, 'BadRequestError');
	}
	const email = validEmail(stringField(body, 'email') as string);
	const ipAddress = validIpAddress(stringField(body, 'ip_address') as string);
	const value = Number(stringField(body, 'value'));
	if (!Number.isFinite(value)) throw badRequest('value: Value must be a number.', 'BadRequestError');
	const eventTime = parseDateParam('event_time', stringField(body, 'event_time') as string);
	const fields = commonFields(body);
	const tags = tagsField(body) ?? [];
	const customFields = resolveCustomFields(state, list.id, customFieldInput(body) ?? {}, false);

	let subscriber = state.subscriberByEmail(list.id, email);
	if (subscriber === undefined) checkAccountAcceptsNewSubscriber(ctx, email);
	else checkAccountAcceptsChanges(ctx);
	if (subscriber === undefined) {
		subscriber = state.newSubscriber(list.id, email, ctx.clock.now());
		applyCommonFields(subscriber, fields);
		subscriber.customFields = customFields;
		subscriber.tags = tags;
		subscriber.ipAddress = ipAddress;
		addToList(ctx, list, subscriber);
	} else {
		for (const [fieldId, fieldValue] of customFields) subscriber.customFields.set(fieldId, fieldValue);
		appendTags(subscriber, tags);
	}
	state.trackedEvents.push({
		id: state.nextId('trackedEvent'),
		messageId: null,
		subscriberId: subscriber.id,
		// AWeber clips the sub-second part of event_time.
		eventTime: Math.floor(eventTime / 1000) * 1000,
		type: 'sale',
		url: stringField(body, 'url') as string,
		vendor: stringField(body, 'vendor') ?? null,
		productName: stringField(body, 'product_name') ?? null,
		eventNote: stringField(body, 'event_note') ?? null,
		currency: stringField(body, 'currency') ?? null,
		value,
	});
	// AWeber records the sale asynchronously: 202 Accepted, Location = the subscriber's activity.
	return accepted(`${links.subscriber(list.id, subscriber.id)}?ws.op=getActivity`);
}

function getSubscribers(ctx: ApiContext): ApiResult {
	const list = listOf(ctx);
	return ok(
		offsetPage({
			url: `${ctx.links.list(list.id)}/subscribers`,
			query: ctx.query,
			items: sortedSubscribers(ctx, ctx.state.subscribersOf(list.id)),
			render: (subscriber) => subscriberEntry(ctx, subscriber),
			entryType: 'subscriber',
			totalKind: 'total_size',
			resourceTypeBase: `${ctx.links.api}/`,
			selfLink: true,
		}),
	);
}

export function registerSubscriberRoutes(routes: ApiRoutes): void {
	const collection = '/accounts/:accountId/lists/:listId/subscribers';
	const entry = `${collection}/:subscriberId`;
	const add = { scope: WRITE, handle: addSubscriber };

	routes.add('GET', collection, {
		plain: { scope: READ, handle: getSubscribers },
		named: {
			find: {
				scope: READ,
				handle: (ctx) => {
					const list = listOf(ctx);
					return ok(findSubscribers(ctx, ctx.state.subscribersOf(list.id), `${ctx.links.list(list.id)}/subscribers`));
				},
			},
		},
	});
	// ws.op=create is optional in practice (docs/aweber-behaviour.md#conventions).
	routes.add('POST', collection, { plain: add, named: { create: add } });
	routes.add('PATCH', collection, {
		plain: { scope: WRITE, handle: (ctx) => updateSubscriber(ctx, subscriberByEmailParam(ctx)) },
	});
	routes.add('DELETE', collection, {
		plain: {
			scope: WRITE,
			handle: (ctx) => {
				ctx.state.removeSubscriber(deletable(subscriberByEmailParam(ctx)));
				return { status: 200 };
			},
		},
	});

	routes.add('GET', entry, {
		plain: { scope: READ, handle: (ctx) => ok(subscriberEntry(ctx, subscriberOf(ctx))) },
		named: { getActivity: { scope: READ, handle: activity } },
	});
	routes.add('PATCH', entry, { plain: { scope: WRITE, handle: (ctx) => updateSubscriber(ctx, subscriberOf(ctx)) } });
	routes.add('DELETE', entry, {
		plain: {
			scope: WRITE,
			handle: (ctx) => {
				ctx.state.removeSubscriber(deletable(subscriberOf(ctx)));
				// The reference answers 200 here, as for delete by email.
				return { status: 200 };
			},
		},
	});
	routes.add('POST', entry, { named: { move: { scope: WRITE, handle: moveSubscriber } } });

	routes.add('POST', '/accounts/:accountId/lists/:listId/purchases', {
		plain: { scope: WRITE, handle: createPurchase },
	});
}
