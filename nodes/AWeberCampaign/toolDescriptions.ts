import { toolDescriptions } from '../shared/toolDescription';

const MESSAGE = 'the list, the campaign ID and the message ID';

/** What an AI agent reads about each campaign, message, open and tracked event operation (docs/ai-agents.md). */
export const campaignToolDescriptions = [
	...toolDescriptions('campaign', {
		find: {
			does: 'List only the broadcast campaigns or only the follow-up campaigns of a list',
			needs: 'the list and the campaign type (broadcast or follow-up)',
			returns: 'the campaigns (ID, subject, dates, totals), up to the limit set',
		},
		get: {
			does: 'Read one campaign of a list: a sent broadcast (ID starting with b) or a follow-up (ID starting with f), with its totals',
			needs: 'the list and the campaign ID',
			returns: 'the campaign with its sent, opened and clicked totals',
		},
		getAll: {
			does: 'List the campaigns of a list: sent broadcasts newest first, then follow-ups',
			needs: 'the list',
			returns: 'the campaigns (ID, subject, dates, totals), up to the limit set',
		},
	}),
	...toolDescriptions('message', {
		get: {
			does: 'Read one recipient\'s copy of a campaign: when it was sent and how often it was opened',
			needs: MESSAGE,
			returns: 'the message',
		},
		getAll: {
			does: 'List the messages of a campaign, one per recipient',
			needs: 'the list and the campaign ID',
			returns: 'the messages, up to the limit set',
		},
	}),
	...toolDescriptions('messageOpen', {
		get: {
			does: 'Read one open of a campaign message: when the recipient opened it',
			needs: `${MESSAGE} and the open ID`,
			returns: 'the open',
		},
		getAll: {
			does: 'List every time the recipient opened a campaign message',
			needs: MESSAGE,
			returns: 'the opens, up to the limit set',
		},
	}),
	...toolDescriptions('messageTrackedEvent', {
		get: {
			does: 'Read one tracked event (a sale or web hit) that followed a campaign message',
			needs: `${MESSAGE} and the tracked event ID`,
			returns: 'the tracked event',
		},
		getAll: {
			does: 'List the tracked events (sales, web hits) that followed a campaign message',
			needs: MESSAGE,
			returns: 'the tracked events, up to the limit set',
		},
	}),
];
