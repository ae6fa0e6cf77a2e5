// Landing pages: read-only, sorted by id, scope landing-page.read.
import { notFound } from '../errors';
import { formatTime, httpEtag } from '../links';
import type { LandingPageRecord } from '../state';
import { listOf, ok, type ApiContext, type ApiRoutes } from './context';
import { collectionPage } from './collectionPage';

const READ = 'landing-page.read';

/**
 * A landing page. The collection lists LandingPageNoContent entries; only Get landing page adds the
 * `content_html` and `published_html` of the reference's LandingPage schema.
 */
function landingPageEntry(ctx: ApiContext, page: LandingPageRecord, withContent: boolean): Record<string, unknown> {
	const content = withContent ? { content_html: page.contentHtml, published_html: page.publishedHtml } : {};
	const fields = {
		id: page.id,
		name: page.name,
		status: page.status,
		...content,
		published_url: page.publishedUrl,
		created_at: formatTime(page.createdAt),
		modified_at: formatTime(page.modifiedAt),
		published_at: formatTime(page.publishedAt),
		self_link: ctx.links.landingPage(page.listId, page.id),
		resource_type_link: ctx.links.resourceType('landing_page'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

export function registerLandingPageRoutes(routes: ApiRoutes): void {
	const collection = '/accounts/:accountId/lists/:listId/landing_pages';
	routes.add('GET', collection, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const listId = listOf(ctx).id;
				const pages = [...ctx.state.landingPages.values()]
					.filter((page) => page.listId === listId)
					.sort((a, b) => a.id.localeCompare(b.id));
				return collectionPage(ctx, `${ctx.links.list(listId)}/landing_pages`, pages, 'landing_page', (page) => landingPageEntry(ctx, page, false));
			},
		},
	});
	routes.add('GET', `${collection}/:landingPageId`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const listId = listOf(ctx).id;
				const page = ctx.state.landingPages.get(ctx.params.landingPageId);
				if (page === undefined || page.listId !== listId) throw notFound('Landing page not found');
				return ok(landingPageEntry(ctx, page, true));
			},
		},
	});
}
