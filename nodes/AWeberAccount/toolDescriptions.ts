import { toolDescriptions } from '../shared/toolDescription';

/** What an AI agent reads about each account operation (docs/ai-agents.md). */
export const accountToolDescriptions = toolDescriptions(undefined, {
	get: {
		does: 'Read the AWeber account: company name and links to its lists and integrations',
		needs: 'the account',
		returns: 'the account',
	},
	getAll: {
		does: 'List the AWeber accounts this connection can reach (usually one); other tools need its ID',
		needs: 'nothing',
		returns: 'the accounts (ID, company)',
	},
});
