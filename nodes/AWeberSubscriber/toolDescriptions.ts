import { toolDescriptions } from '../shared/toolDescription';

/** What an AI agent reads about each subscriber operation (docs/ai-agents.md). */
export const subscriberToolDescriptions = toolDescriptions(undefined, {
	upsert: {
		does: 'Add a person to an AWeber list, or update them if their email address is already on it (tags are added, not replaced)',
		needs: 'the list and the email address; optionally a name, tags and custom field values',
		changes: 'adds or updates a subscriber; a new subscriber may be sent the list\'s confirmation and follow-up emails',
		returns: 'the subscriber: ID, email, name, status, tags, custom fields and list',
	},
	create: {
		does: 'Add a person who is not yet on an AWeber list (it fails with "already subscribed" if they are: use Create or Update then)',
		needs: 'the list and the email address; optionally a name, tags and custom field values',
		changes: 'adds a subscriber, who may be sent the list\'s confirmation and follow-up emails',
		returns: 'the new subscriber: ID, email, name, status, tags, custom fields and list',
	},
	delete: {
		does: 'Delete a subscriber and all their activity from a list, for good (to stop emails but keep the history, unsubscribe instead)',
		needs: 'the list and the subscriber (ID or email address)',
		changes: 'deletes the subscriber and their history permanently; this cannot be undone',
		returns: 'a confirmation that the subscriber was deleted',
	},
	find: {
		does: 'Search one list\'s subscribers by email address, name, status, tags, custom fields or dates',
		needs: 'the list and at least one search filter',
		returns: 'the matching subscribers (ID, email, name, status, tags, custom fields), up to the limit set',
	},
	findForAccount: {
		does: 'Search the subscribers of every list of the account, e.g. to find which lists an email address is on',
		needs: 'at least one search filter, usually the email address',
		returns: 'the matching subscribers with the list each is on, up to the limit set',
	},
	get: {
		does: 'Read one subscriber of a list',
		needs: 'the list and the subscriber (ID or email address)',
		returns: 'the subscriber: ID, email, name, status, tags, custom fields and list',
	},
	getActivity: {
		does: 'Read what happened to a subscriber, newest first: subscribed, verified, emails sent, opens, clicks, sales',
		needs: 'the list and the subscriber (ID or email address)',
		returns: 'one entry per event, up to the limit set',
	},
	getForMessage: {
		does: 'List the subscribers who were sent a campaign (a broadcast or follow-up) of a list',
		needs: 'the list and the campaign ID',
		returns: 'the recipients (ID, email, name, status), up to the limit set',
	},
	getAll: {
		does: 'List the subscribers of a list in the order they were added',
		needs: 'the list',
		returns: 'the subscribers (ID, email, name, status, tags), up to the limit set',
	},
	move: {
		does: 'Move a subscriber from one list to another',
		needs: 'the list they are on, the subscriber (ID or email address) and the destination list',
		changes: 'marks them unsubscribed on the first list and adds them to the destination list, which may send them that list\'s emails',
		returns: 'the subscriber on the destination list',
	},
	shapeSource: {
		does: "Write a contact of another system (a CRM, a shop, a sheet) the way a list's subscriber is compared in a sync: email in lower case, trimmed name, sorted tags, every custom field of the list as text",
		needs: 'the list and the contact\'s email address (name, tags and custom field values if any)',
		returns: 'the contact in that shape, or nothing for an address a later item gives again',
	},
	trackPurchase: {
		does: 'Record a sale for a buyer, adding them to the list if they are not on it',
		needs: 'the list, the buyer\'s email address, the product and the amount',
		changes: 'records a purchase event (sending it twice records two sales) and may add a subscriber',
		returns: 'the buyer as a subscriber',
	},
	unsubscribe: {
		does: 'Unsubscribe a subscriber from a list so they get no more emails from it, keeping their data and history',
		needs: 'the list and the subscriber (ID or email address)',
		changes: 'sets the subscriber\'s status to unsubscribed, so they stop receiving the list\'s emails (a run that would unsubscribe more than 10 % of the list is refused)',
		returns: 'the unsubscribed subscriber',
	},
	update: {
		does: 'Change a subscriber already on a list: email address, name, tags to add or remove, custom fields',
		needs: 'the list, the subscriber (ID or email address) and the changes',
		changes: 'updates the subscriber',
		returns: 'the updated subscriber: ID, email, name, status, tags, custom fields and list',
	},
});
