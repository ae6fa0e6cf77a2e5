import { toolDescriptions } from '../shared/toolDescription';

/** What an AI agent reads about each integration operation (docs/ai-agents.md). */
export const integrationToolDescriptions = toolDescriptions(undefined, {
	get: {
		does: 'Read one third-party integration of the AWeber account (Facebook, PayPal, Shopify...)',
		needs: 'the account and the integration ID',
		returns: 'the integration: ID, service name and login',
	},
	getAll: {
		does: 'List the third-party integrations connected to the AWeber account',
		needs: 'the account',
		returns: 'the integrations (ID, service name), up to the limit set',
	},
});
