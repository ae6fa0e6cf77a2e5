import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';

import { NEXT_PAGE_SOURCE, readRemainingEntries } from './collections';
import { isCollectionPage, isObject, unexpectedAnswer, type CollectionPage } from './answers';
import { asNodeError, readAweberFailure } from './errors';
import { isAbsoluteLink } from './origin';
import { resolvePathParameters } from './pathParameters';
import { checkLimit } from './fieldValidation';
import { NO_AUTOMATIC_REDIRECTS, sendFollowingApiRedirects, type RequestHop } from './redirects';
import { findEarlierAdd } from './subscriberAddRecovery';
import { apiBaseUrlOf } from './accountSettings';
import { declarativeShapingError, errorOutputItem, refusingBadInput, sendsErrorsToErrorOutput, takeDeferredFailure, type RoutedError } from './itemFailures';
import { sendWithAweberPolicies, type LostAnswerAdvice } from './sendWithPolicies';

export type { RoutedError } from './itemFailures';

/*
 * How the package hooks into n8n's declarative routing (n8n-core's RoutingNode), and every assumption it
 * makes about how RoutingNode runs. Nothing else in the package relies on RoutingNode's internals; each
 * assumption below has a contract test (test/contract/routing.test.ts) that runs on every n8n version of
 * the compatibility matrix (`npm run test:compat`).
 *
 * A1  A node-level `requestOperations.pagination` function is called, with the item's `requestData`, for
 *     every routed request whose routing sets `send.paginate` (the hidden `aweberTransport` property sets it
 *     for every operation of every AWeber node).
 * A2  An operation's own `routing.operations.pagination` replaces the node's for that operation (how Create
 *     and Create or Update declare their duplicate-add recovery).
 * A3  (No longer made: the order of preSend functions. A preSend that reads the URL fills its `{placeholders}`
 *     itself; filling twice is harmless. `aweberTransport`'s preSend fills them for every request: the routed
 *     entry runs only where it sets `paginate` (A1), after every preSend (A10).)
 * A4  `this.makeRoutingRequest(request)` sends `request.options` as given (so the routed entry sends with it a
 *     collection's further pages, a redirect's target and the other spelling of a 404) and runs the operation's
 *     postReceive functions on AWeber's answer before it resolves, so their follow-up requests (reading a
 *     `Location`) happen while the routed entry is still running.
 * A5  Every context of one item (preSend, pagination, postReceive) answers the same `getItemIndex()`, and
 *     all items of one node run share one `getExecuteData()` object: the per-run state in runState.ts is
 *     keyed by it, and items by their index, with no assumption about how the contexts are built.
 * A6  `requestData.maxResults` carries the operation's Limit (`routing.output.maxResults`), and RoutingNode
 *     outputs no more items than it (so a last page read whole is cut to the Limit there, not in collections.ts).
 * A7  RoutingNode starts every item's request before awaiting any, and waits for all of them: an item
 *     that failed for good can stop the others still queued for the rate limit.
 * A8  An error thrown by `makeRoutingRequest` carries AWeber's answer (status and JSON body) where
 *     `readAweberFailure` (errors.ts) finds it.
 * A9  `requestData.postReceive` lists the postReceive actions of the operation and of every property shown
 *     (a chosen option's included) in property order, and `makeRoutingRequest` runs exactly those: the routed
 *     entry refuses a declarative step among them (itemFailures.ts), and runs them on the one answer it asks for
 *     by another request, AWeber's `find` that shows an add its first attempt carried out (subscriberAddRecovery.ts).
 * A10 An item's preSend functions all run before its pagination call, and an item whose request rejects is
 *     output by RoutingNode as `{ json: {}, error }`, which WorkflowExecute reduces to `{ error: message }`
 *     without the input item's fields; an item output as `{ json: { error }, pairedItem }` (`error` its only
 *     key: 1.x routes nothing else to the error output) gets them in the error output (WorkflowExecute's
 *     error-output split), on 1.x and 2.x alike (test/nodes/error-output.test.ts).
 * A11 RoutingNode starts every item's request in one synchronous loop (with no batching interval, which AWeber nodes
 *     do not offer), and awaits only preSends and the pagination call: when an operation's preSends send nothing,
 *     every item's pagination function has been entered before any macrotask (a request's answer) runs. Shape Source
 *     for Comparison (sourceContact.ts) relies on it: each item registers its address on entry, so after the run's one
 *     read of the list's custom fields every item knows every address of the run ("the last row wins").
 */

/** Hidden, first in each node's properties: every operation through the routed entry (A1), its URL's IDs filled and checked, and a Limit checked. */
export const aweberTransport: INodeProperties = {
	displayName: 'AWeber Transport',
	name: 'aweberTransport',
	type: 'hidden',
	default: true,
	routing: {
		send: {
			paginate: true,
			preSend: [refusingBadInput(resolvePathParameters), refusingBadInput(checkLimit)],
		},
	},
};

/** What an operation declares about its request, beyond what n8n's routing carries. */
export interface RoutedRequestPolicy {
	/**
	 * For a write AWeber refuses the second time once it was carried out (add subscriber: "… is already subscribed",
	 * docs/aweber-behaviour.md#add-subscriber): it may be sent again after an unknown outcome, and a retry that meets
	 * that refusal outputs AWeber's answer showing what the first attempt did (undefined: the refusal stands), through
	 * the operation's own postReceive. `collectionUrl` is the write's URL.
	 */
	findEarlierWrite?: (
		context: IExecuteSingleFunctions,
		collectionUrl: string,
		firstSentAt: number | undefined,
	) => Promise<IN8nHttpFullResponse | undefined>;
	/** A write that cannot be sent again (Track Purchase, Broadcast Create): what it may have done if its answer is lost. */
	ifAnswerLost?: LostAnswerAdvice;
	/**
	 * Where to ask once more when AWeber answers 404 (a resource AWeber's documents name two ways, such as the
	 * unsubscribe statistics, docs/aweber-behaviour.md#broadcast-statistics); undefined: nowhere.
	 */
	retryNotFoundAt?: (url: string) => string | undefined;
	/** Restates a misleading refusal in place (Get Statistics on a broadcast not yet sent: "Campaign not found"). */
	restateRefusal?: (error: RoutedError, request: { url?: string }) => void;
}

/**
 * The routed entry: each request of an operation (its own, a collection's further pages through
 * `next_collection_link`, collections.ts) is n8n's `makeRoutingRequest` under the shared pacing/retry/error
 * policies (sendWithPolicies.ts), so n8n's own postReceive shapes every answer, until the collection ends or the node's
 * Limit is reached, one n8n item per entry.
 */
export function routedAweberRequest(policy: RoutedRequestPolicy = {}) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		// A preSend refused this item's input (error output only, refusingBadInput in itemFailures.ts): nothing is sent.
		const refusedInput = sendsErrorsToErrorOutput(this) ? takeDeferredFailure(this) : undefined;
		if (refusedInput !== undefined) return [errorOutputItem(this, refusedInput, itemIndex)];
		try {
			return await sendRouted(this, requestData, policy, itemIndex);
		} catch (error) {
			if (policy.restateRefusal && error instanceof Error) {
				policy.restateRefusal(error, { url: absoluteUrl(requestData.options.baseURL, requestData.options.url) });
			}
			if (sendsErrorsToErrorOutput(this)) return [errorOutputItem(this, error, itemIndex)];
			// The request path's errors are n8n's already; anything else (a TypeError) becomes one naming the item.
			throw asNodeError(this.getNode(), error, itemIndex, undefined, false);
		}
	};
}

/** The operation's request under the request path's policies, and a collection's further pages. */
async function sendRouted(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	policy: RoutedRequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const functions = postReceiveFunctions(requestData);
	if (!functions) throw declarativeShapingError(context, requestData, itemIndex);
	const { method = 'GET', baseURL, url } = requestData.options;
	const absolute = absoluteUrl(baseURL, url);
	const otherUrl = policy.retryNotFoundAt?.(absolute);
	const target = { url: absolute, method, apiBaseUrl: await apiBaseUrlOf(context), itemIndex };
	// n8n does not follow redirects with the token; the package follows those that stay on the API (redirects.ts).
	const send = async (request: DeclarativeRestApiSettings.ResultOptions, url: string, hopMethod = method) =>
		await sendFollowingApiRedirects(context.getNode(), { ...target, url, method: hopMethod }, async (hop) => await context.makeRoutingRequest(freshRequest(request, hop)));
	const { findEarlierWrite } = policy;
	let firstResponse: INodeExecutionData[];
	try {
		firstResponse = await sendWithAweberPolicies(
			context,
			{
				method,
				url: absolute,
				itemIndex,
				safeToRepeat: findEarlierWrite !== undefined,
				recoverDuplicate:
					findEarlierWrite
						? async ({ firstSentAt }) => {
								const answer = await findEarlierWrite(context, absolute, firstSentAt);
								return answer && (await outputOfAnswer(context, functions, answer));
							}
						: undefined,
				ifAnswerLost: policy.ifAnswerLost,
				handledRefusal: otherUrl !== undefined ? (failure) => failure.status === 404 : undefined,
			},
			async () => await send(requestData, target.url),
		);
	} catch (error) {
		if (otherUrl === undefined || readAweberFailure(error).status !== 404) throw asNodeError(context.getNode(), error, itemIndex);
		context.logger.info(`AWeber answered 404 at ${absolute}; asking once more at ${otherUrl}`, { node: context.getNode().name });
		firstResponse = await sendWithAweberPolicies(context, { method, url: otherUrl, itemIndex }, async () =>
			await send({ ...requestData, options: { ...requestData.options, url: otherUrl, baseURL: undefined } }, otherUrl),
		);
	}
	const first = asCollectionPage(firstResponse);
	if (!first) {
		// An operation with Return All reads a collection: an answer that is not a page is never its one item.
		if (readsCollection(context)) throw notAPage(context, firstResponse, 'reading a collection', itemIndex);
		// n8n outputs the answer as it came: text (a proxy's maintenance page), a number or `null` would be a successful
		// item that is no AWeber resource (docs/aweber-behaviour.md#answers). A write's empty answer says it was done.
		const notAnObject = firstResponse.find((item) => !isObject(item.json) && (item.json !== '' || method === 'GET'));
		if (notAnObject) throw unexpectedAnswer(context.getNode(), 'a JSON object', notAnObject.json, `reading AWeber's answer to ${method} ${absolute}`, itemIndex, method === 'GET' ? undefined : MAY_HAVE_CARRIED_OUT);
		return firstResponse;
	}
	// Each further page is n8n's routed request too, so n8n runs the operation's postReceive on it as on the first (A4).
	const readPage = async (link: string): Promise<CollectionPage> => {
		const request = { method: 'GET', url: link, source: NEXT_PAGE_SOURCE, itemIndex, concurrent: true };
		const items = await sendWithAweberPolicies(context, request, async () => await send(linkRequest(requestData, link), link, 'GET'));
		const page = asCollectionPage(items);
		if (!page) throw notAPage(context, items, 'reading the next page of a collection', itemIndex);
		return page;
	};
	const entries = await readRemainingEntries(context, first, { limit: resultLimit(requestData.maxResults), itemIndex, readPage });
	return entries.map((json) => ({ json }));
}

/** Every AWeber operation's default entry (A1). */
export const sendAweberRequest = routedAweberRequest();

/** Create and Create or Update declare this as their `routing.operations.pagination` (A2). */
export const sendSubscriberAdd = routedAweberRequest({ findEarlierWrite: findEarlierAdd });

/** The node-level hook: every AWeber node's `requestOperations`. */
export const aweberRequestOperations: INodeTypeDescription['requestOperations'] = {
	pagination: sendAweberRequest,
};

const MAY_HAVE_CARRIED_OUT = 'AWeber may have carried out the request: check in AWeber before running this item again.';

/**
 * "AWeber's answer was unexpected" for routed output where a collection page belongs, quoting AWeber's answer (an
 * array answer is one item per entry when the operation has no postReceive).
 */
function notAPage(context: IExecuteSingleFunctions, items: INodeExecutionData[], where: string, itemIndex: number) {
	const answer = items.length === 1 ? items[0].json : items.map((item) => item.json);
	return unexpectedAnswer(context.getNode(), 'a page of an AWeber collection', answer, where, itemIndex);
}

/** The Limit (A6), a whole number of at least 1 (`checkLimit`, fieldValidation.ts); none with Return All. */
function resultLimit(maxResults: unknown): number {
	const limit = Number(maxResults);
	return Number.isFinite(limit) ? limit : Infinity;
}

/** Every operation's URL starts with `/`, and its base has no `/` at the end (requestDefaults.ts, accountSettings.ts). */
function absoluteUrl(baseURL: string | undefined, url = ''): string {
	return isAbsoluteLink(url) || !baseURL ? url : `${baseURL}${url}`;
}

/** The operation's read sent to a link AWeber handed out (a further page), which carries the whole query. */
function linkRequest(requestData: DeclarativeRestApiSettings.ResultOptions, link: string): DeclarativeRestApiSettings.ResultOptions {
	return { ...requestData, options: { ...requestData.options, url: link, baseURL: undefined, qs: {}, method: 'GET' } };
}

/** Each attempt starts from the request as built (n8n's helpers modify headers and bodies); a redirect goes to its Location. */
function freshRequest(requestData: DeclarativeRestApiSettings.ResultOptions, hop: RequestHop): DeclarativeRestApiSettings.ResultOptions {
	const { options } = requestData;
	const fresh = { ...options, ...NO_AUTOMATIC_REDIRECTS, headers: { ...options.headers }, qs: { ...options.qs } };
	if (hop.redirected) {
		Object.assign(fresh, { url: hop.url, baseURL: undefined, qs: {}, method: hop.method });
		if (!hop.keepsBody) {
			delete fresh.body;
			for (const name of Object.keys(fresh.headers)) if (/^content-type$/i.test(name)) delete fresh.headers[name];
		}
	}
	return { ...requestData, options: fresh };
}

/** Routed output that is one AWeber collection page, its entries shaped by the operation's postReceive. */
function asCollectionPage(items: INodeExecutionData[]): CollectionPage | undefined {
	if (items.length !== 1) return undefined;
	return isCollectionPage(items[0].json) ? items[0].json : undefined;
}

/** Whether the operation reads a collection: it shows Return All (collectionPaging in descriptions.ts). */
function readsCollection(context: IExecuteSingleFunctions): boolean {
	const absent = Symbol('absent');
	return (context.getNodeParameter('returnAll', absent) as unknown) !== absent;
}

type PostReceiveFunction = (this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse) => Promise<INodeExecutionData[]>;

/**
 * The operation's postReceive functions in the order RoutingNode runs them (A9); undefined when one of its
 * actions is a declarative step (rootProperty, set, ...) that only RoutingNode can run.
 */
function postReceiveFunctions(requestData: DeclarativeRestApiSettings.ResultOptions): PostReceiveFunction[] | undefined {
	const actions = requestData.postReceive.flatMap((postReceive) => postReceive.actions);
	return actions.every((action) => typeof action === 'function') ? (actions as PostReceiveFunction[]) : undefined;
}

/**
 * The operation's output of an answer of AWeber's that came by another request than the routed one (the `find` that
 * shows an add its first attempt did, subscriberAddRecovery.ts), as RoutingNode makes it: the body, through the
 * operation's postReceive functions in order (A9).
 */
async function outputOfAnswer(context: IExecuteSingleFunctions, functions: PostReceiveFunction[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
	let items: INodeExecutionData[] = [{ json: response.body as IDataObject }];
	for (const action of functions) items = await action.call(context, items, response);
	return items;
}
