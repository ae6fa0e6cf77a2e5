import { aweberLocator } from './descriptions';

/** A broadcast (`b123`) or follow-up (`f456`) campaign of the chosen list: AWeber prefixes campaign ids with their type. */
export const campaignLocator = aweberLocator({
	name: 'campaignId',
	displayName: 'Campaign',
	searchMethod: 'searchCampaigns',
	urlSegment: 'campaigns',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/campaigns/b123',
	idPlaceholder: 'b123',
	idPattern: '^[bf]\\d{1,20}$',
	description: 'The campaign: "b" (broadcast) or "f" (follow-up) followed by its number, e.g. b123',
});

/** One sent message (one subscriber's copy) of the chosen campaign. */
export const messageLocator = aweberLocator({
	name: 'messageId',
	displayName: 'Message',
	searchMethod: 'searchMessages',
	urlSegment: 'messages',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/campaigns/b123/messages/789',
	idPlaceholder: '789',
	description: "One subscriber's copy of the campaign. AWeber's current API reference no longer lists campaign messages: for opens and clicks use the AWeber Broadcast node.",
});

/** A broadcast of the chosen list, in any state (draft, scheduled, sent). */
export const broadcastLocator = aweberLocator({
	name: 'broadcastId',
	displayName: 'Broadcast',
	searchMethod: 'searchBroadcasts',
	urlSegment: 'broadcasts',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/broadcasts/5001',
	idPlaceholder: '5001',
});
