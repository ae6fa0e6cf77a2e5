import type { INodeProperties, NodeHint } from 'n8n-workflow';

import { reportDeleted } from '../../../shared/deletedResult';
import { subscriberEntryUrl } from '../../../shared/subscriberLocator';
import { bulkAddHint, noticeBulkAdd } from './bulkAdds';
import { subscriberCreateDescription } from './create';
import { subscriberDeleteDescription } from './delete';
import { subscriberFindDescription } from './find';
import { subscriberFindForAccountDescription } from './findForAccount';
import { subscriberGetDescription } from './get';
import { subscriberGetActivityDescription } from './getActivity';
import { subscriberGetManyDescription } from './getAll';
import { subscriberGetForMessageDescription } from './getForMessage';
import {
	findSubscriberToGet,
	followLocation,
	refusingBadInput,
	resolveSubscriberEmail,
	routedAweberRequest,
	sendMoveDestination,
	sendNewSubscriber,
	sendPurchase,
	sendSearchFilters,
	sendSubscriberAdd,
	sendSubscriberChanges,
	sendSubscriberEmail,
	shapeSourceContact,
	unwrapFoundSubscriber,
} from './hooks';
import { subscriberMoveDescription } from './move';
import { subscriberShapeSourceDescription } from './shapeSource';
import { subscriberTrackPurchaseDescription } from './trackPurchase';
import { subscriberUnsubscribeDescription } from './unsubscribe';
import { subscriberUpdateDescription } from './update';
import { subscriberUpsertDescription } from './upsert';

const subscribersUrl = '/accounts/{accountId}/lists/{listId}/subscribers';

export const subscriberOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	// The most used action first: the node panel lists the actions in this order.
	options: [
		{
			name: 'Create or Update',
			value: 'upsert',
			action: 'Add or update a subscriber',
			// n8n's lint fixes this wording for upserts; the Output option says where the line is (fields.ts).
			description: 'Create a new record, or update the current one if it already exists (upsert)',
			routing: {
				// update_existing makes AWeber update an address already on the list instead of refusing it (the
				// updatable fields sent are applied, tags appended); both cases answer 201 + Location, so an upsert is
				// one call, plus the read of the subscriber unless Output is the request summary (upsert.ts). A
				// find-then-PATCH would also keep custom fields safe but costs three calls for a new address. AWeber does
				// not document whether update_existing keeps the custom fields left out; the sandbox keeps them.
				request: { method: 'POST', url: subscribersUrl, body: { update_existing: 'true' } },
				send: { preSend: [refusingBadInput(noticeBulkAdd), refusingBadInput(sendNewSubscriber)] },
				operations: { pagination: sendSubscriberAdd },
			},
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Add a subscriber to a list',
			description:
				"Add someone who signed up, bought or changed elsewhere, with tags and custom fields (to import an existing list, use AWeber's importer)",
			routing: {
				request: { method: 'POST', url: subscribersUrl },
				send: { preSend: [refusingBadInput(noticeBulkAdd), refusingBadInput(sendNewSubscriber)] },
				// The output (the subscriber read from Location, or a summary of the request) is the Output field's (create.ts).
				// An add may be retried; a retry AWeber refuses as "already subscribed" gives that output too.
				operations: { pagination: sendSubscriberAdd },
			},
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a subscriber',
			description:
				'Delete the subscriber and their activity from the list (AWeber refuses unconfirmed subscribers; use Unsubscribe to keep the history)',
			routing: {
				request: { method: 'DELETE', url: subscriberEntryUrl },
				send: { preSend: [refusingBadInput(sendSubscriberEmail)] },
				output: { postReceive: [reportDeleted] },
			},
		},
		{
			name: 'Find',
			value: 'find',
			action: 'Find subscribers on a list',
			description: 'Search the list\'s subscribers by email, name, status, tags, custom fields, dates and more',
			routing: {
				request: { method: 'GET', url: subscribersUrl, qs: { 'ws.op': 'find' } },
				send: { preSend: [refusingBadInput(sendSearchFilters)] },
			},
		},
		{
			name: 'Find in Account',
			value: 'findForAccount',
			action: 'Find subscribers across all lists',
			description: 'Search the subscribers of every list of the account (slower than searching one list)',
			routing: {
				request: { method: 'GET', url: '/accounts/{accountId}', qs: { 'ws.op': 'findSubscribers' } },
				send: { preSend: [refusingBadInput(sendSearchFilters)] },
			},
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a subscriber',
			description: 'Get one subscriber of the list, by ID, URL or email address',
			routing: {
				request: { method: 'GET', url: subscriberEntryUrl },
				send: { preSend: [refusingBadInput(findSubscriberToGet)] },
				output: { postReceive: [unwrapFoundSubscriber] },
			},
		},
		{
			name: 'Get Activity',
			value: 'getActivity',
			action: 'Get the activity of a subscriber',
			description: 'Get what happened to the subscriber, newest first: subscribed, verified, messages sent, opens, clicks, sales',
			routing: {
				request: { method: 'GET', url: subscriberEntryUrl, qs: { 'ws.op': 'getActivity' } },
				send: { preSend: [refusingBadInput(resolveSubscriberEmail)] },
			},
		},
		{
			name: 'Get for Message',
			value: 'getForMessage',
			action: 'Get the subscribers a campaign was sent to',
			description:
				'Get the subscribers who were sent the messages of a broadcast or follow-up campaign (AWeber\'s "get subscribers for message", no longer in its current API reference)',
			routing: {
				request: {
					method: 'GET',
					url: '/accounts/{accountId}/lists/{listId}/campaigns/{campaignId}/messages',
					qs: { 'ws.op': 'getSubscribers' },
				},
			},
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many subscribers',
			description: 'Get the subscribers of the list in the order they were added',
			routing: { request: { method: 'GET', url: subscribersUrl } },
		},
		{
			name: 'Move',
			value: 'move',
			action: 'Move a subscriber to another list',
			description:
				'Move the subscriber to another list and output them there (the original is marked unsubscribed with method "api: move")',
			routing: {
				// Form-encoded: one client library reports enforce_custom_field_mapping ignored when sent as JSON.
				request: {
					method: 'POST',
					url: subscriberEntryUrl,
					headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
					body: { 'ws.op': 'move' },
				},
				send: { preSend: [refusingBadInput(resolveSubscriberEmail), refusingBadInput(sendMoveDestination)] },
				output: { postReceive: [followLocation] },
			},
		},
		{
			name: 'Shape Source for Comparison',
			value: 'shapeSource',
			action: 'Shape source contacts for comparison',
			description:
				"Output each contact of a source (a CRM, a shop, a sheet) exactly as Get Many's Shape for Comparison outputs a subscriber, for n8n's Compare Datasets node in a sync (sends nothing but one read of the list's custom fields)",
			routing: {
				// Not sent per item: the routed entry shapes the item and reads the list's custom field names once per run
				// (customFields.ts). The URL says what is read, and has its IDs checked before anything (aweberTransport).
				request: { method: 'GET', url: '/accounts/{accountId}/lists/{listId}/custom_fields' },
				operations: { pagination: shapeSourceContact },
			},
		},
		{
			name: 'Track Purchase',
			value: 'trackPurchase',
			action: 'Record a purchase for a subscriber',
			description:
				'Record a sale as a tracked event of the buyer, adding them to the list if needed, and output the subscriber',
			routing: {
				request: { method: 'POST', url: '/accounts/{accountId}/lists/{listId}/purchases' },
				send: { preSend: [refusingBadInput(sendPurchase)] },
				// A purchase cannot be sent twice safely: AWeber would record the sale twice.
				operations: {
					pagination: routedAweberRequest({
						ifAnswerLost: {
							mayHaveHappened: 'The purchase may have been recorded',
							howToCheck: "Check the buyer's activity in AWeber (the subscriber's Activity, or the Get Activity operation) for the purchase event before running this item again.",
						},
					}),
				},
				// The output (the buyer read back, or a summary of the request) is the Output field's (trackPurchase.ts).
			},
		},
		{
			name: 'Unsubscribe',
			value: 'unsubscribe',
			action: 'Unsubscribe a subscriber',
			description: 'Mark the subscriber unsubscribed, keeping their data and history',
			routing: {
				request: { method: 'PATCH', url: subscriberEntryUrl, body: { status: 'unsubscribed' } },
				send: { preSend: [refusingBadInput(sendSubscriberChanges)] },
			},
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a subscriber',
			description:
				'Change the subscriber\'s fields, add or remove tags, and set custom fields without clearing the others',
			routing: {
				request: { method: 'PATCH', url: subscriberEntryUrl },
				send: { preSend: [refusingBadInput(sendSubscriberChanges)] },
			},
		},
	],
	default: 'create',
};

export const subscriberDescription: INodeProperties[] = [
	subscriberOperations,
	...subscriberCreateDescription,
	...subscriberUpsertDescription,
	...subscriberGetDescription,
	...subscriberGetManyDescription,
	...subscriberGetActivityDescription,
	...subscriberGetForMessageDescription,
	...subscriberFindDescription,
	...subscriberFindForAccountDescription,
	...subscriberUpdateDescription,
	...subscriberUnsubscribeDescription,
	...subscriberDeleteDescription,
	...subscriberMoveDescription,
	...subscriberShapeSourceDescription,
	...subscriberTrackPurchaseDescription,
];

/** Shown by the editor in the output panel when their condition holds (bulkAdds.ts). */
export const subscriberHints: NodeHint[] = [bulkAddHint];
