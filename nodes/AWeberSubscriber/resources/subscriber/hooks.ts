/*
 * The request-time functions the Subscriber operations name in their routing (preSend, postReceive, the routed
 * entry): the one module of this resource that reaches the network layer, imported only by index.ts and the
 * operation files, so that the fields stay descriptions (docs/architecture.md#fields-and-hooks).
 */
export { followLocation } from '../../../shared/followLocation';
export { routedAweberRequest, sendSubscriberAdd } from '../../../shared/routing';
export { simplifySubscribers } from '../../../shared/simplify';
export { refusingBadInput } from '../../../shared/itemFailures';
export { shapeForComparison } from './comparisonShape';
export { shapeSourceContact } from './sourceContact';
export { readAddedSubscriber, summarizePurchase, summarizeSubscriberAdd } from './writeOutput';
export {
	findSubscriberToGet,
	outputPurchaseSubscriber,
	resolveSubscriberEmail,
	sendMoveDestination,
	sendNewSubscriber,
	sendPurchase,
	sendSearchFilters,
	sendSubscriberChanges,
	sendSubscriberEmail,
	unwrapFoundSubscriber,
} from './requests';
