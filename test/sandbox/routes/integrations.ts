// Integrations: the account's connected services (facebook, twitter, paypal), sorted by id.
import { notFound } from '../errors';
import { httpEtag } from '../links';
import type { IntegrationRecord } from '../state';
import { intParam, ok, type ApiContext, type ApiRoutes } from './context';
import { collectionPage } from './collectionPage';

const READ = 'account.read';

function integrationEntry(ctx: ApiContext, integration: IntegrationRecord): Record<string, unknown> {
	const fields = {
		id: integration.id,
		service_name: integration.serviceName,
		login: integration.login,
		self_link: ctx.links.integration(integration.id),
		resource_type_link: ctx.links.resourceType('integration'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

export function registerIntegrationRoutes(routes: ApiRoutes): void {
	const collection = '/accounts/:accountId/integrations';
	routes.add('GET', collection, {
		plain: {
			scope: READ,
			handle: (ctx) =>
				collectionPage(ctx, `${ctx.links.account()}/integrations`, [...ctx.state.integrations.values()].sort((a, b) => a.id - b.id), 'integration', (integration) => integrationEntry(ctx, integration)),
		},
	});
	routes.add('GET', `${collection}/:integrationId`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const integration = ctx.state.integrations.get(intParam(ctx, 'integrationId', 'Integration'));
				if (integration === undefined) throw notFound('Integration not found');
				return ok(integrationEntry(ctx, integration));
			},
		},
	});
}
