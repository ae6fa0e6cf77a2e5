// Segments: read-only; used as a broadcast's segment_link (docs/aweber-behaviour.md#conventions).
import { notFound } from '../errors';
import { httpEtag } from '../links';
import type { SegmentRecord } from '../state';
import { intParam, listOf, ok, type ApiContext, type ApiRoutes } from './context';
import { collectionPage } from './collectionPage';

const READ = 'list.read';

function segmentEntry(ctx: ApiContext, segment: SegmentRecord): Record<string, unknown> {
	const fields = {
		id: segment.id,
		name: segment.name,
		is_split_test: segment.isSplitTest,
		self_link: ctx.links.segment(segment.listId, segment.id),
		resource_type_link: ctx.links.resourceType('segment'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

export function registerSegmentRoutes(routes: ApiRoutes): void {
	const collection = '/accounts/:accountId/lists/:listId/segments';
	routes.add('GET', collection, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const listId = listOf(ctx).id;
				const segments = [...ctx.state.segments.values()].filter((s) => s.listId === listId).sort((a, b) => a.id - b.id);
				return collectionPage(ctx, `${ctx.links.list(listId)}/segments`, segments, 'segment', (segment) => segmentEntry(ctx, segment));
			},
		},
	});
	routes.add('GET', `${collection}/:segmentId`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const listId = listOf(ctx).id;
				const segment = ctx.state.segments.get(intParam(ctx, 'segmentId', 'Segment'));
				if (segment === undefined || segment.listId !== listId) throw notFound('Segment not found');
				return ok(segmentEntry(ctx, segment));
			},
		},
	});
}
