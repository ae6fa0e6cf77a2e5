import { toolDescriptions } from '../shared/toolDescription';

/** What an AI agent reads about each segment operation (docs/ai-agents.md). */
export const segmentToolDescriptions = toolDescriptions(undefined, {
	get: {
		does: 'Read one segment (a saved subscriber search) of a list',
		needs: 'the list and the segment ID',
		returns: 'the segment: ID and name',
	},
	getAll: {
		does: 'List the segments (saved subscriber searches) of a list; a broadcast can be sent to one',
		needs: 'the list',
		returns: 'the segments (ID, name), up to the limit set',
	},
});
