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
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isCollectionPage, readRemainingEntries, type CollectionPage } from './collections';
import { unexpectedAnswer } from './answers';
import { asNodeError, readAweberFailure } from './errors';
import { isAbsoluteLink } from './origin';
import { fillPathParameters, resolvePathParameters } from './pathParameters';
import { NO_AUTOMATIC_REDIRECTS, sendFollowingApiRedirects, type RequestHop } from './redirects';
import {
	aweberGet,
	apiBaseUrlOf,
	refusingBadInput,
	sendsErrorsToErrorOutput,
	sendWithAweberPolicies,
	takeDeferredFailure,
	type AweberContext,
	type LostAnswerAdvice,
} from './transport';
import { addedByEarlierAttempt } from './failureDecision';

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
 * A3  preSend functions run in the order of the node's properties, so `aweberTransport` (spread first)
 *     fills the URL's `{placeholders}` before an operation's own preSend reads the URL. The routed entry
 *     fills them again before sending (idempotent), so the request itself never depends on the order.
 * A4  `this.makeRoutingRequest(requestData)` sends the request and runs the operation's postReceive
 *     functions before it resolves, so their follow-up requests (reading a `Location`) happen while the
 *     routed entry is still running.
 * A5  Every context of one item (preSend, pagination, postReceive) answers the same `getItemIndex()`, and
 *     all items of one node run share one `getExecuteData()` object: the per-run state in transport.ts is
 *     keyed by it, and items by their index, with no assumption about how the contexts are built.
 * A6  `requestData.maxResults` carries the operation's Limit (`routing.output.maxResults`).
 * A7  RoutingNode starts every item's request before awaiting any, and waits for all of them: an item
 *     that failed for good can stop the others still queued for the rate limit.
 * A8  An error thrown by `makeRoutingRequest` carries AWeber's answer (status and JSON body) where
 *     `readAweberFailure` (errors.ts) finds it.
 * A9  `requestData.postReceive` lists the postReceive actions of the operation and of every property shown
 *     (a chosen option's included) in property order, and `makeRoutingRequest` runs exactly those: the routed
 *     entry runs the same functions on answers it reads or makes up itself (a collection's further pages, a
 *     recovered add subscriber), so every page and every path gives the same output.
 * A10 An item's preSend functions all run before its pagination call, and an item whose request rejects is
 *     output by RoutingNode as `{ json: {}, error }`, which WorkflowExecute reduces to `{ error: message }`
 *     without the input item's fields; an item output as `{ json: { error }, pairedItem }` (`error` its only
 *     key: 1.x routes nothing else to the error output) gets them in the error output (WorkflowExecute's
 *     error-output split), on 1.x and 2.x alike (test/nodes/error-output.test.ts).
 */

/**
 * Hidden switch that sends every operation of a node through the routed entry (RoutingNode only calls
 * `requestOperations.pagination` when `paginate` is set, A1) and fills the URL's `{placeholders}` (A3).
 * Spread first into each node's properties.
 */
export const aweberTransport: INodeProperties = {
	displayName: 'AWeber Transport',
	name: 'aweberTransport',
	type: 'hidden',
	default: true,
	routing: {
		send: {
			paginate: true,
			preSend: [refusingBadInput(resolvePathParameters)],
		},
	},
};

/** What an operation declares about its request, beyond what n8n's routing carries. */
export interface RoutedRequestPolicy {
	/**
	 * The request is an add subscriber (POST of an email to a list's subscribers), which AWeber refuses the
	 * second time with "… is already subscribed" (docs/aweber-behaviour.md#add-subscriber): it may be sent
	 * again after an unknown outcome, and a retry that meets that refusal returns the subscriber the first
	 * attempt created, through the operation's own postReceive.
	 */
	subscriberAdd?: boolean;
	/**
	 * A write that cannot be sent again (Track Purchase, Broadcast Create): what it may have done when AWeber's
	 * answer is lost, and where the user can check, for the error (transport.ts).
	 */
	ifAnswerLost?: LostAnswerAdvice;
	/**
	 * Where to ask once more when AWeber answers 404 (a resource AWeber's documents name two ways, such as the
	 * unsubscribe statistics, docs/aweber-behaviour.md#broadcast-statistics); undefined: nowhere.
	 */
	retryNotFoundAt?: (url: string) => string | undefined;
	/**
	 * Restates AWeber's refusal in the operation's own words where AWeber's are misleading (Get Statistics on a
	 * broadcast not yet sent: AWeber answers "Campaign not found"). Changes the error's headline and description
	 * in place, so everything else the request path put on it stays.
	 */
	restateRefusal?: (error: RoutedError, request: { url?: string }) => void;
}

/** An error thrown by the request path: its headline and description are what n8n shows. */
export type RoutedError = Error & { description?: string | null; httpCode?: string | null };

/**
 * The routed entry: an operation's request goes out under the shared pacing/retry/error policies
 * (transport.ts), and a collection is read through `next_collection_link` (collections.ts) until it ends or
 * the node's Limit is reached, one n8n item per entry.
 */
export function routedAweberRequest(policy: RoutedRequestPolicy = {}) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		// A preSend refused this item's input (error output only, refusingBadInput in transport.ts): nothing is sent.
		const refusedInput = sendsErrorsToErrorOutput(this) ? takeDeferredFailure(this) : undefined;
		if (refusedInput !== undefined) return [errorOutputItem(this, refusedInput, requestData, itemIndex)];
		try {
			return await sendRouted(this, requestData, policy, itemIndex);
		} catch (error) {
			if (policy.restateRefusal && error instanceof Error) {
				policy.restateRefusal(error, { url: absoluteUrl(requestData.options.baseURL, requestData.options.url) });
			}
			if (sendsErrorsToErrorOutput(this)) return [errorOutputItem(this, error, requestData, itemIndex)];
			throw asNodeFailure(this, error, itemIndex);
		}
	};
}

/** The request path's errors are n8n's already; anything else becomes one naming the item. */
function asNodeFailure(context: IExecuteSingleFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
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
	if (requestData.options.url) requestData.options.url = fillPathParameters(context, requestData.options.url);
	const { method = 'GET', baseURL, url, body } = requestData.options;
	const absolute = absoluteUrl(baseURL, url);
	const subscriberAdd = policy.subscriberAdd ? subscriberAddOf(absolute, body) : undefined;
	const otherUrl = absolute !== undefined ? policy.retryNotFoundAt?.(absolute) : undefined;
	const target = { url: absolute ?? '', method, apiBaseUrl: await apiBaseUrlOf(context), itemIndex };
	// n8n does not follow redirects with the token; the package follows those that stay on the API (redirects.ts).
	const send = async (request: DeclarativeRestApiSettings.ResultOptions, url: string) =>
		await sendFollowingApiRedirects(context.getNode(), { ...target, url }, async (hop) => await context.makeRoutingRequest(freshRequest(request, hop)));
	let firstResponse: INodeExecutionData[];
	try {
		firstResponse = await sendWithAweberPolicies(
			context,
			{
				method,
				url: absolute,
				itemIndex,
				safeToRepeat: subscriberAdd !== undefined,
				recoverDuplicate: subscriberAdd
					? async ({ firstSentAt }) => await recoverSubscriberAdd(context, requestData, subscriberAdd, firstSentAt)
					: undefined,
				ifAnswerLost: policy.ifAnswerLost,
				handledRefusal: otherUrl !== undefined ? (failure) => failure.status === 404 : undefined,
			},
			async () => await send(requestData, target.url),
		);
	} catch (error) {
		if (otherUrl === undefined || readAweberFailure(error).status !== 404) throw asNodeError(context.getNode(), error, itemIndex);
		context.logger.info(`AWeber answered 404 at ${absolute}; asking once more at ${otherUrl}`, { node: context.getNode().name });
		const otherRequest = { ...requestData, options: { ...requestData.options, url: otherUrl, baseURL: undefined } };
		firstResponse = await sendWithAweberPolicies(context, { method, url: otherUrl, itemIndex }, async () => await send(otherRequest, otherUrl));
	}
	const first = asCollectionPage(firstResponse);
	if (!first) {
		// An operation with Return All reads a collection: an answer that is not a page is never its one item.
		if (readsCollection(context)) {
			throw unexpectedAnswer(context.getNode(), 'a page of an AWeber collection', firstResponse.length === 1 ? firstResponse[0].json : firstResponse, 'reading a collection', itemIndex);
		}
		return firstResponse;
	}
	// The first page went through the operation's postReceive in makeRoutingRequest; each further one goes
	// through it as it arrives (A9).
	const entries = await readRemainingEntries(context, first, {
		limit: resultLimit(requestData.maxResults),
		itemIndex,
		shapeEntries: functions.length ? async (page) => await entriesThroughPostReceive(context, functions, page) : undefined,
	});
	return entries.map((json) => ({ json }));
}

/**
 * The error-output item of a failed request: `error` holds what n8n shows (the headline as `message`, the
 * `description`, the HTTP status) and what identifies the input (the email the request was about, the item's
 * index); n8n adds the input item's own fields. `error` must be the JSON's only key for n8n to route the item to
 * the error output on 1.x (2.x also accepts `message` and `details`), so everything is inside it, as n8n's HTTP
 * Request node outputs its error object there.
 */
function errorOutputItem(
	context: IExecutePaginationFunctions,
	error: unknown,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	itemIndex: number,
): INodeExecutionData {
	const failure = error as RoutedError;
	const message = failure instanceof Error ? failure.message : String(error);
	const details: IDataObject = { message };
	if (failure?.description) details.description = failure.description;
	if (failure?.httpCode) details.httpCode = failure.httpCode;
	const email = emailInBody(requestData.options.body) ?? emailInQuery(requestData.options.qs) ?? emailParameter(context);
	if (email) details.email = email;
	details.itemIndex = itemIndex;
	context.logger.debug(`AWeber: item ${itemIndex} failed and goes to the error output: ${message}`, { node: context.getNode().name });
	return { json: { error: details }, pairedItem: { item: itemIndex } };
}

/** The item's Email field, where the operation has one (its request may not have been built when input was refused). */
function emailParameter(context: IExecuteSingleFunctions): string | undefined {
	let email: unknown;
	try {
		email = context.getNodeParameter('email', '');
	} catch {
		return undefined;
	}
	return typeof email === 'string' && email.trim() !== '' ? email.trim() : undefined;
}

function emailInQuery(qs: IDataObject | undefined): string | undefined {
	const email = qs?.email;
	return typeof email === 'string' && email.trim() !== '' ? email.trim() : undefined;
}

/** Every AWeber operation's default entry (A1). */
export const sendAweberRequest = routedAweberRequest();

/** Create and Create or Update declare this as their `routing.operations.pagination` (A2). */
export const sendSubscriberAdd = routedAweberRequest({ subscriberAdd: true });

/** The node-level hook: every AWeber node's `requestOperations`. */
export const aweberRequestOperations: INodeTypeDescription['requestOperations'] = {
	pagination: sendAweberRequest,
};

/** Whether the operation reads a collection: it shows Return All (collectionPaging in descriptions.ts). */
function readsCollection(context: IExecutePaginationFunctions): boolean {
	const absent = Symbol('absent');
	return (context.getNodeParameter('returnAll', absent) as unknown) !== absent;
}

/** A routed response that is one AWeber collection page (the first page of a Get Many). */
function asCollectionPage(items: INodeExecutionData[]): CollectionPage | undefined {
	if (items.length !== 1) return undefined;
	return isCollectionPage(items[0].json) ? items[0].json : undefined;
}

type PostReceiveFunction = (
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
) => Promise<INodeExecutionData[]>;

/**
 * The operation's postReceive functions in the order RoutingNode runs them (A9); undefined when one of its
 * actions is a declarative step (rootProperty, set, ...) that only RoutingNode can run.
 */
function postReceiveFunctions(requestData: DeclarativeRestApiSettings.ResultOptions): PostReceiveFunction[] | undefined {
	const actions = requestData.postReceive.flatMap((postReceive) => postReceive.actions);
	return actions.every((action) => typeof action === 'function') ? (actions as PostReceiveFunction[]) : undefined;
}

/**
 * The rule that keeps Return All whole (docs/architecture.md#return-all-reads-every-page): output shaping is
 * declared as postReceive functions. A declarative step (`rootProperty`, `set`, ...) runs inside RoutingNode on
 * the first page only and turns it into something that is no longer a collection page, so the further pages
 * would be dropped without a word: such an operation is refused before it sends anything.
 */
function declarativeShapingError(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	itemIndex: number,
): NodeOperationError {
	const steps = requestData.postReceive
		.flatMap((postReceive) => postReceive.actions)
		.filter((action) => typeof action !== 'function')
		.map((action) => `"${(action as { type?: string }).type ?? 'unknown'}"`);
	return new NodeOperationError(
		context.getNode(),
		`This operation declares a declarative postReceive step (${steps.join(', ')}), which AWeber nodes do not allow`,
		{
			description:
				'AWeber nodes shape output with postReceive functions only, so that Return All reads every page: a declarative step runs on the first page alone (docs/architecture.md, "Return All reads every page"). Write the step as a postReceive function.',
			itemIndex,
		},
	);
}

async function runPostReceive(
	context: IExecutePaginationFunctions,
	functions: PostReceiveFunction[],
	response: IN8nHttpFullResponse,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	for (const action of functions) items = await action.call(context, items, response);
	return items;
}

/** The entries of a further page of a collection, through the postReceive that shaped the first page's. */
async function entriesThroughPostReceive(
	context: IExecutePaginationFunctions,
	functions: PostReceiveFunction[],
	entries: IDataObject[],
): Promise<IDataObject[]> {
	const page: CollectionPage = { entries };
	const items = await runPostReceive(context, functions, { statusCode: 200, headers: {}, body: page }, [{ json: page as unknown as IDataObject }]);
	return items.flatMap((item) => (isCollectionPage(item.json) ? item.json.entries : [item.json]));
}

function resultLimit(maxResults: unknown): number {
	const limit = Number(maxResults);
	return Number.isFinite(limit) && limit > 0 ? limit : Infinity;
}

function absoluteUrl(baseURL: string | undefined, url: string | undefined): string | undefined {
	if (!url || isAbsoluteLink(url)) return url;
	return baseURL ? `${baseURL.replace(/\/+$/, '')}${url.startsWith('/') ? '' : '/'}${url}` : url;
}

/**
 * Copies of the parts n8n's HTTP helpers modify (signing adds headers, empty bodies are removed), so each
 * attempt of a retried request starts from the node's request as built; n8n never follows a redirect itself, and
 * a redirect the package follows (redirects.ts) goes to its Location, which carries the whole query.
 */
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

interface SubscriberAdd {
	collectionUrl: string;
	email: string;
}

/** The list's subscriber collection and the email of an add subscriber request. */
function subscriberAddOf(url: string | undefined, body: unknown): SubscriberAdd | undefined {
	const email = emailInBody(body);
	if (!url || !email) return undefined;
	return { collectionUrl: url.split('?')[0].replace(/\/+$/, ''), email };
}

function emailInBody(body: unknown): string | undefined {
	let email: unknown;
	if (typeof body === 'string') email = new URLSearchParams(body).get('email');
	else if (body instanceof URLSearchParams) email = body.get('email');
	else if (typeof body === 'object' && body !== null) email = (body as IDataObject).email;
	return typeof email === 'string' && email.trim() !== '' ? email.trim() : undefined;
}

/**
 * What the node outputs when a retried add subscriber turned out to have been carried out by an earlier
 * attempt: the operation's own postReceive run on AWeber's answer to a successful add (201 + Location), so
 * the output is the one the normal path gives. Undefined when the subscriber cannot be found.
 */
async function recoverSubscriberAdd(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	add: SubscriberAdd,
	firstSentAt: number | undefined,
): Promise<INodeExecutionData[] | undefined> {
	const found = await aweberGet<{ entries?: IDataObject[] }>(context as AweberContext, add.collectionUrl, { 'ws.op': 'find', email: add.email });
	const subscriber = found.entries?.[0];
	if (!subscriber || typeof subscriber.self_link !== 'string') return undefined;
	// The address may have been on the list before: only a subscription AWeber dates after the first attempt was
	// sent is that attempt's doing (docs/aweber-behaviour.md#add-subscriber).
	if (firstSentAt === undefined || !addedByEarlierAttempt(subscriber.subscribed_at, firstSentAt)) return undefined;
	context.logger.info(
		`AWeber: a retried add of ${add.email} was refused as a duplicate; the first attempt had added it, so its subscriber is the result`,
		{ node: context.getNode().name },
	);
	const functions = postReceiveFunctions(requestData);
	if (!functions?.length) return [{ json: subscriber }];
	const response: IN8nHttpFullResponse = { statusCode: 201, headers: { location: subscriber.self_link }, body: '' };
	return await runPostReceive(context, functions, response, [{ json: {} }]);
}
