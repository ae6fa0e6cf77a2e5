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
	// The request path gave this 404 a description (toAweberError's hint, docs/architecture.md): it stays below the advice.
	error.description = [
		`AWeber answered "${failure.message}": the broadcast has not been sent yet (or no broadcast of this list has this ID). ` +
			'Choose a sent broadcast, or get the statistics after it is sent.',
		error.description,
	].join('\n');
}

/** Get Statistics declares this as its `routing.operations.pagination` (Get Statistic's entry adds the spelling retry). */
export const sendBroadcastStatisticsRequest = routedAweberRequest({ restateRefusal: explainStatisticsOfUnsentBroadcast });

/**
 * The unsubscribe time series: AWeber's reference names them `*_unsubscribed` in its path enum and
 * `*_unsubscribes` in its prose (docs/aweber-behaviour.md#broadcast-statistics). The node asks for the enum's
 * name, and on a 404 once for the other.
 */
export function otherUnsubscribeSpelling(url: string): string | undefined {
	const match = /^(.*\/stats\/(?:hourly|daily)_unsubscrib)(ed|es)$/.exec(url);
	if (match === null) return undefined;
	return `${match[1]}${match[2] === 'ed' ? 'es' : 'ed'}`;
}

/**
 * Get Statistic's entry (`routing.operations.pagination`): the routed entry, asking the other spelling on a 404, and
 * saying what "Campaign not found" means before the broadcast is sent.
 */
export const sendStatisticRequest = routedAweberRequest({
	retryNotFoundAt: otherUnsubscribeSpelling,
	restateRefusal: explainStatisticsOfUnsentBroadcast,
});
