/*
 * The request-time functions the Broadcast operations name in their routing (preSend, postReceive, the routed
 * entries): the one module of this resource that reaches the network layer, imported only by index.ts and the
 * operation files, so that the fields stay descriptions (docs/architecture.md#fields-and-hooks).
 */
export { readSelfLink } from '../../../shared/followLocation';
export { routedAweberRequest } from '../../../shared/routing';
export { simplifyBroadcasts } from '../../../shared/simplify';
export { refusingBadInput } from '../../../shared/itemFailures';
export { linkReportIdentifiers, linkReportPage } from './linkReport';
export {
	createBroadcastFormBody,
	readableStatistics,
	scheduleCreatedBroadcast,
	scheduleFormBody,
	updateBroadcastFormBody,
} from './requestShaping';
export { sendBroadcastStatisticsRequest, sendStatisticRequest } from './statisticsRefusal';
