import { readAweberFailure } from '../../../shared/errors';
import { routedAweberRequest, type RoutedError } from '../../../shared/routing';

/**
 * A broadcast's statistics live on the campaign `b{id}`, which AWeber makes only once the broadcast is sent
 * (docs/aweber-behaviour.md#broadcast-statistics). Before that AWeber answers 404 "Campaign not found"; the
 * headline says what it means instead. A 404 for one unknown statistic of a sent broadcast is left as AWeber said.
 */
export function explainStatisticsOfUnsentBroadcast(error: RoutedError, request: { url?: string }): void {
	const failure = readAweberFailure(error);
	if (failure.status !== 404 || !/campaign/i.test(failure.message ?? '')) return;
	const broadcastId = /\/campaigns\/b(\d+)\/stats(?:[/?]|$)/.exec(request.url ?? '')?.[1];
	if (broadcastId === undefined) return;
	error.message = `Broadcast ${broadcastId} has no statistics yet: AWeber has statistics only once a broadcast is sent`;
	error.description =
		`AWeber answered "${failure.message}": the broadcast has not been sent yet (or no broadcast of this list has this ID). ` +
		'Choose a sent broadcast, or get the statistics after it is sent.' +
		(error.description ? `\n${error.description}` : '');
}

/** Get Statistics declares this as its `routing.operations.pagination` (Get Statistic's entry adds the spelling retry). */
export const sendBroadcastStatisticsRequest = routedAweberRequest({ restateRefusal: explainStatisticsOfUnsentBroadcast });
