import { toolDescriptions } from '../shared/toolDescription';

/** What an AI agent reads about each landing page operation (docs/ai-agents.md). */
export const landingPageToolDescriptions = toolDescriptions(undefined, {
	get: {
		does: 'Read one landing page of a list: status, published URL and HTML',
		needs: 'the list and the landing page ID',
		returns: 'the landing page',
	},
	getAll: {
		does: 'List the landing pages of a list',
		needs: 'the list',
		returns: 'the landing pages (ID, name, status, URL), up to the limit set',
	},
});
