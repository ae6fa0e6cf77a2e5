// Lists: get lists, get list, find lists (by name or unique list id), the list's most popular tags.
import { httpEtag } from '../links';
import type { ListRecord } from '../state';
import { listOf, ok, type ApiContext, type ApiRoutes } from './context';
import { collectionPage } from './collectionPage';

const READ = 'list.read';
const DAY_MS = 86_400_000;

export function listEntry(ctx: ApiContext, list: ListRecord): Record<string, unknown> {
	const { links } = ctx;
	const self = links.list(list.id);
	const subscribers = ctx.state.subscribersOf(list.id);
	const count = (status: string) => subscribers.filter((subscriber) => subscriber.status === status).length;
	const today = Math.floor(ctx.clock.now() / DAY_MS) * DAY_MS;
	const subscribedBetween = (from: number, to: number) =>
		subscribers.filter((s) => s.status === 'subscribed' && s.subscribedAt >= from && s.subscribedAt < to).length;
	const fields = {
		id: list.id,
		uuid: list.uuid,
		name: list.name,
		unique_list_id: list.uniqueListId,
		total_subscribers: subscribers.length,
		total_subscribed_subscribers: count('subscribed'),
		total_unsubscribed_subscribers: count('unsubscribed'),
		total_unconfirmed_subscribers: count('unconfirmed'),
		total_subscribers_subscribed_today: subscribedBetween(today, today + DAY_MS),
		total_subscribers_subscribed_yesterday: subscribedBetween(today - DAY_MS, today),
		vapid_public_key: `BSandbox${list.uniqueListId}`,
		campaigns_collection_link: `${self}/campaigns`,
		custom_fields_collection_link: `${self}/custom_fields`,
		subscribers_collection_link: `${self}/subscribers`,
		web_forms_collection_link: `${self}/web_forms`,
		web_form_split_tests_collection_link: `${self}/web_form_split_tests`,
		landing_pages_collection_link: `${self}/landing_pages`,
		segments_collection_link: `${self}/segments`,
		draft_broadcasts_link: `${self}/broadcasts?status=draft`,
		scheduled_broadcasts_link: `${self}/broadcasts?status=scheduled`,
		sent_broadcasts_link: `${self}/broadcasts?status=sent`,
		self_link: self,
		resource_type_link: links.resourceType('list'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

function allLists(ctx: ApiContext): ListRecord[] {
	return [...ctx.state.lists.values()].sort((a, b) => a.id - b.id);
}

/** Tags used on the list, most used first (AWeber returns a bare array, not an envelope). */
function popularTags(ctx: ApiContext): string[] {
	const counts = new Map<string, number>();
	for (const subscriber of ctx.state.subscribersOf(listOf(ctx).id)) {
		for (const tag of subscriber.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
	}
	return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tag]) => tag);
}

export function registerListRoutes(routes: ApiRoutes): void {
	const collection = '/accounts/:accountId/lists';
	routes.add('GET', collection, {
		plain: {
			scope: READ,
			handle: (ctx) =>
				collectionPage(ctx, `${ctx.links.account()}/lists`, allLists(ctx), 'list', (list) => listEntry(ctx, list)),
		},
		named: {
			// `name` matches the list's name or its unique list id (awlist…).
			find: {
				scope: READ,
				handle: (ctx) => {
					const name = (ctx.query.name ?? '').trim().toLowerCase();
					const found = allLists(ctx).filter(
						(list) => name === '' || list.name.toLowerCase() === name || list.uniqueListId.toLowerCase() === name,
					);
					return collectionPage(ctx, `${ctx.links.account()}/lists`, found, 'list', (list) => listEntry(ctx, list), 'total_size_link');
				},
			},
		},
	});
	routes.add('GET', `${collection}/:listId`, { plain: { scope: READ, handle: (ctx) => ok(listEntry(ctx, listOf(ctx))) } });
	routes.add('GET', `${collection}/:listId/tags`, { plain: { scope: READ, handle: (ctx) => ok(popularTags(ctx)) } });
}
