// Accounts: the single account that authorised the app, and its account-wide named operations.
import { httpEtag } from '../links';
import { ok, type ApiContext, type ApiRoutes } from './context';
import { collectionPage } from './collectionPage';
import { findSubscribersOnAccount } from './subscribers';
import { splitTestsOnAccount, webFormsOnAccount } from './webforms';

function accountEntry(ctx: ApiContext): Record<string, unknown> {
	const { links, state } = ctx;
	const self = links.account();
	const fields = {
		id: state.account.id,
		uuid: state.account.uuid,
		company: state.account.company,
		analytics_src: `https://analytics.aweber.com/js/awt_analytics.js?id=${state.account.uuid.slice(0, 8)}`,
		lists_collection_link: `${self}/lists`,
		integrations_collection_link: `${self}/integrations`,
		self_link: self,
		resource_type_link: links.resourceType('account'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

export function registerAccountRoutes(routes: ApiRoutes): void {
	routes.add('GET', '/accounts', {
		plain: {
			scope: 'account.read',
			handle: (ctx) =>
				collectionPage(ctx, `${ctx.links.api}/accounts`, [ctx.state.account], 'account', () => accountEntry(ctx)),
		},
	});
	routes.add('GET', '/accounts/:accountId', {
		plain: { scope: 'account.read', handle: (ctx) => ok(accountEntry(ctx)) },
		named: {
			findSubscribers: { scope: 'subscriber.read', handle: findSubscribersOnAccount },
			getWebForms: { scope: 'list.read', handle: webFormsOnAccount },
			getWebFormSplitTests: { scope: 'list.read', handle: splitTestsOnAccount },
		},
	});
}
