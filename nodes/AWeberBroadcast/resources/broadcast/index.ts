import type { INodeProperties } from 'n8n-workflow';

import { reportDeleted } from '../../../shared/deletedResult';
import { broadcastCancelDescription } from './cancel';
import { broadcastCreateDescription } from './create';
import { broadcastDeleteDescription } from './delete';
import { broadcastGetDescription } from './get';
import { broadcastGetManyDescription } from './getAll';
import { broadcastGetClicksDescription } from './getClicks';
import { broadcastGetLinkReportDescription, LINK_REPORT_PATH } from './getLinkReport';
import { broadcastGetOpensDescription } from './getOpens';
import { broadcastGetStatisticDescription } from './getStatistic';
import { broadcastGetStatisticsDescription } from './getStatistics';
import { broadcastGetTotalDescription } from './getTotal';
import {
	createBroadcastFormBody,
	linkReportIdentifiers,
	linkReportPage,
	readableStatistics,
	readSelfLink,
	refusingBadInput,
	routedAweberRequest,
	scheduleCreatedBroadcast,
	scheduleFormBody,
	sendBroadcastStatisticsRequest,
	sendStatisticRequest,
	updateBroadcastFormBody,
} from './hooks';
import { broadcastScheduleDescription } from './schedule';
import { broadcastUpdateDescription } from './update';

const BROADCASTS = '/accounts/{accountId}/lists/{listId}/broadcasts';
const BROADCAST = `${BROADCASTS}/{broadcastId}`;
/** A sent broadcast is also a campaign `b{id}`; its statistics live there. */
const BROADCAST_STATS = '/accounts/{accountId}/lists/{listId}/campaigns/b{broadcastId}/stats';
/** AWeber takes broadcast writes form-encoded only (a JSON body gets 415). */
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

export const broadcastOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Cancel',
			value: 'cancel',
			action: 'Cancel a scheduled broadcast',
			description: 'Cancel a scheduled broadcast so it goes back to draft; outputs the broadcast',
			routing: {
				request: { method: 'POST', url: `${BROADCAST}/cancel` },
				output: { postReceive: [readSelfLink] },
			},
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Create a broadcast',
			description: 'Create a draft broadcast, and optionally schedule it in the same step',
			routing: {
				request: { method: 'POST', url: BROADCASTS, headers: FORM },
				send: { preSend: [refusingBadInput(createBroadcastFormBody)] },
				output: { postReceive: [scheduleCreatedBroadcast] },
				// A second create would make a second draft.
				operations: {
					pagination: routedAweberRequest({
						ifAnswerLost: {
							mayHaveHappened: 'The draft broadcast may have been created',
							howToCheck: "Check the list's drafts in AWeber (or the Get Many operation with Status \"Draft\") before running this item again.",
						},
					}),
				},
			},
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a broadcast',
			description: 'Delete a draft broadcast created through the API',
			routing: {
				request: { method: 'DELETE', url: BROADCAST },
				output: { postReceive: [reportDeleted] },
			},
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a broadcast',
			description: 'Get a broadcast with its content, lists, status and (once sent) stats',
			routing: { request: { method: 'GET', url: BROADCAST } },
		},
		{
			name: 'Get Clicks',
			value: 'getClicks',
			action: 'Get the clicks of a broadcast',
			description: 'Get who clicked in a sent broadcast, per subscriber or per click',
			routing: { request: { method: 'GET', url: `${BROADCAST}/clicks` } },
		},
		{
			name: 'Get Link Report (Beta)',
			value: 'getLinkReport',
			action: 'Get the link report of a broadcast',
			description: "Get the clicks or page views per URL of a sent broadcast, unique and total, from AWeber's 2.0-beta API",
			routing: {
				request: { method: 'GET', url: LINK_REPORT_PATH },
				send: { preSend: [refusingBadInput(linkReportIdentifiers)] },
				output: { postReceive: [linkReportPage] },
			},
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many broadcasts',
			description: 'Get the draft, scheduled or sent broadcasts of a list',
			routing: { request: { method: 'GET', url: BROADCASTS } },
		},
		{
			name: 'Get Opens',
			value: 'getOpens',
			action: 'Get the opens of a broadcast',
			description: 'Get who opened a sent broadcast (first open per subscriber, newest first)',
			routing: { request: { method: 'GET', url: `${BROADCAST}/opens` } },
		},
		{
			name: 'Get Statistic',
			value: 'getStatistic',
			action: 'Get a statistic of a broadcast',
			description: 'Get one statistic of a sent broadcast (a number, or a list for time series and top 10s)',
			routing: {
				request: { method: 'GET', url: `${BROADCAST_STATS}/{statisticId}` },
				output: { postReceive: [readableStatistics] },
				// Asks the other spelling of an unsubscribe statistic on a 404, and restates "Campaign not found" (statisticsRefusal.ts).
				operations: { pagination: sendStatisticRequest },
			},
		},
		{
			name: 'Get Statistics',
			value: 'getStatistics',
			action: 'Get the statistics of a broadcast',
			description: 'Get every statistic of a sent broadcast, one item each (ID, description, value)',
			routing: {
				request: { method: 'GET', url: BROADCAST_STATS },
				output: { postReceive: [readableStatistics] },
				// "Campaign not found" before the broadcast is sent is restated as what it means (statisticsRefusal.ts).
				operations: { pagination: sendBroadcastStatisticsRequest },
			},
		},
		{
			name: 'Get Total',
			value: 'getTotal',
			action: 'Count the broadcasts of a list',
			description: 'Get how many draft, scheduled or sent broadcasts a list has',
			routing: { request: { method: 'GET', url: `${BROADCASTS}/total` } },
		},
		{
			name: 'Schedule',
			value: 'schedule',
			action: 'Schedule a broadcast',
			description: 'Schedule a draft broadcast to be sent at a given time; outputs the scheduled broadcast',
			routing: {
				request: { method: 'POST', url: `${BROADCAST}/schedule`, headers: FORM },
				send: { preSend: [refusingBadInput(scheduleFormBody)] },
				output: { postReceive: [readSelfLink] },
			},
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a broadcast',
			description: 'Change a draft broadcast created through the API',
			routing: {
				request: { method: 'PUT', url: BROADCAST, headers: FORM },
				send: { preSend: [refusingBadInput(updateBroadcastFormBody)] },
			},
		},
	],
	default: 'getAll',
};

export const broadcastDescription: INodeProperties[] = [
	broadcastOperations,
	...broadcastGetManyDescription,
	...broadcastGetDescription,
	...broadcastGetTotalDescription,
	...broadcastGetStatisticsDescription,
	...broadcastGetStatisticDescription,
	...broadcastCreateDescription,
	...broadcastUpdateDescription,
	...broadcastDeleteDescription,
	...broadcastScheduleDescription,
	...broadcastCancelDescription,
	...broadcastGetOpensDescription,
	...broadcastGetClicksDescription,
	...broadcastGetLinkReportDescription,
];
