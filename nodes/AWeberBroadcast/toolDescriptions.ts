import { toolDescriptions } from '../shared/toolDescription';

const BROADCAST = 'the list and the broadcast ID';
const SENT_BROADCAST = 'the list and the ID of a sent broadcast';

/** What an AI agent reads about each broadcast operation (docs/ai-agents.md). */
export const broadcastToolDescriptions = toolDescriptions(undefined, {
	cancel: {
		does: 'Cancel a scheduled broadcast (a one-off newsletter email) so it is not sent; it goes back to draft',
		needs: BROADCAST,
		changes: 'the broadcast is no longer scheduled',
		returns: 'the broadcast with its new status',
	},
	create: {
		does: 'Create a broadcast (a one-off newsletter email to a list) as a draft; it is not sent unless the Schedule option is set',
		needs: 'the list, the subject and the HTML or plain text body',
		changes: 'creates a draft broadcast; with the Schedule option it is also scheduled and will be emailed to the list',
		returns: 'the broadcast: ID, subject, status and links',
	},
	delete: {
		does: 'Delete a draft broadcast that was created through the API',
		needs: BROADCAST,
		changes: 'deletes the draft permanently; this cannot be undone',
		returns: 'a confirmation that the broadcast was deleted',
	},
	get: {
		does: 'Read one broadcast: subject, content, lists, status and, once sent, its statistics',
		needs: BROADCAST,
		returns: 'the broadcast',
	},
	getClicks: {
		does: 'List who clicked links in a sent broadcast',
		needs: SENT_BROADCAST,
		returns: 'one entry per subscriber or per click, up to the limit set',
	},
	getLinkReport: {
		does: 'Report the clicks or page views per URL of a sent broadcast, unique and total',
		needs: SENT_BROADCAST,
		returns: 'one entry per URL',
	},
	getAll: {
		does: 'List the draft, scheduled or sent broadcasts of a list',
		needs: 'the list and the status to list (draft, scheduled or sent)',
		returns: 'the broadcasts (ID, subject, status, dates), up to the limit set',
	},
	getOpens: {
		does: 'List who opened a sent broadcast (first open per subscriber, newest first)',
		needs: SENT_BROADCAST,
		returns: 'one entry per subscriber who opened it, up to the limit set',
	},
	getStatistic: {
		does: 'Read one statistic of a sent broadcast, such as unique_opens, total_clicks or daily_opens',
		needs: `${SENT_BROADCAST} and the statistic ID`,
		returns: 'the statistic: ID, description and value (a number, or a list for time series and top 10s)',
	},
	getStatistics: {
		does: 'Read how a sent broadcast did: opens, clicks, sales and unsubscribes',
		needs: SENT_BROADCAST,
		returns: 'one entry per statistic: ID, description and value',
	},
	getTotal: {
		does: 'Count the draft, scheduled or sent broadcasts of a list',
		needs: 'the list and the status to count',
		returns: 'the count',
	},
	schedule: {
		does: 'Schedule a draft broadcast to be emailed to its list at a given time',
		needs: `${BROADCAST} and the time to send it`,
		changes: 'the broadcast WILL BE EMAILED to every subscriber of its list at that time unless it is cancelled before; ask the user to confirm first',
		returns: 'the scheduled broadcast',
	},
	update: {
		does: 'Change a draft broadcast that was created through the API: subject, content, lists',
		needs: `${BROADCAST} and the changes`,
		changes: 'replaces the draft\'s details',
		returns: 'the updated broadcast',
	},
});
