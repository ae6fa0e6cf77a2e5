import { toolDescriptions } from '../shared/toolDescription';

/** What an AI agent reads about each list operation (docs/ai-agents.md). */
export const listToolDescriptions = toolDescriptions(undefined, {
	find: {
		does: 'Find the AWeber lists whose name or unique list ID (awlist...) is the given text',
		needs: 'the name or unique list ID',
		returns: 'the matching lists (ID, name, subscriber counts)',
	},
	get: {
		does: 'Read one AWeber list: name, unique list ID and subscriber counts',
		needs: 'the list ID',
		returns: 'the list',
	},
	getAll: {
		does: 'List the mailing lists of the AWeber account; other tools need a list\'s ID',
		needs: 'nothing but the account',
		returns: 'the lists (ID, name, unique list ID, subscriber counts), up to the limit set',
	},
	getTags: {
		does: 'List the most used tags of a list\'s subscribers',
		needs: 'the list',
		returns: 'one entry per tag',
	},
});
