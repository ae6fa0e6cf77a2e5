import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isCollectionPage, type CollectionPage } from './collections';

/*
 * What the routed entry (routing.ts) makes of n8n's output of a routed request: a collection's first page, an
 * item for the error output, and the rule that keeps Return All whole. The assumptions about RoutingNode they rely
 * on are listed in routing.ts (A9, A10).
 */

/** An error thrown by the request path: its headline and description are what n8n shows. */
export type RoutedError = Error & { description?: string | null; httpCode?: string | null };

/** Routed output that is one AWeber collection page, its entries shaped by the operation's postReceive. */
export function asCollectionPage(items: INodeExecutionData[]): CollectionPage | undefined {
	if (items.length !== 1) return undefined;
	return isCollectionPage(items[0].json) ? items[0].json : undefined;
}

/** Whether the operation reads a collection: it shows Return All (collectionPaging in descriptions.ts). */
export function readsCollection(context: IExecuteSingleFunctions): boolean {
	const absent = Symbol('absent');
	return (context.getNodeParameter('returnAll', absent) as unknown) !== absent;
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
export function postReceiveFunctions(requestData: DeclarativeRestApiSettings.ResultOptions): PostReceiveFunction[] | undefined {
	const actions = requestData.postReceive.flatMap((postReceive) => postReceive.actions);
	return actions.every((action) => typeof action === 'function') ? (actions as PostReceiveFunction[]) : undefined;
}

/**
 * The operation's output of one of AWeber's answers that reached the package by another request than the routed one
 * (the `find` that shows an add its first attempt carried out, subscriberAddRecovery.ts), as RoutingNode makes it:
 * the answer's body, through the operation's postReceive functions in order (A9).
 */
export async function outputOfAnswer(
	context: IExecuteSingleFunctions,
	functions: PostReceiveFunction[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	let items: INodeExecutionData[] = [{ json: response.body as IDataObject }];
	for (const action of functions) items = await action.call(context, items, response);
	return items;
}

/**
 * The rule that keeps Return All whole (docs/architecture.md#return-all-reads-every-page): output shaping is
 * declared as postReceive functions. A declarative step (`rootProperty`, `set`, ...) turns a page into something
 * that is no longer a collection page, so the routed entry could not find the next one and the further pages would
 * be dropped without a word: such an operation is refused before it sends anything.
 */
export function declarativeShapingError(
	context: IExecuteSingleFunctions,
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

/**
 * The error-output item of a failed request (A10): `error` holds what n8n shows (the headline as `message`, the
 * `description`, the HTTP status) and what identifies the input (the address the item is about, the item's index);
 * n8n adds the input item's own fields. `error` must be the JSON's only key for n8n to route the item to the error
 * output on 1.x (2.x also accepts `message` and `details`), so everything is inside it, as n8n's HTTP Request node
 * outputs its error object there.
 */
export function errorOutputItem(context: IExecutePaginationFunctions, error: unknown, itemIndex: number): INodeExecutionData {
	const failure = error as RoutedError;
	const message = failure instanceof Error ? failure.message : String(error);
	const details: IDataObject = { message };
	if (failure?.description) details.description = failure.description;
	if (failure?.httpCode) details.httpCode = failure.httpCode;
	const email = emailOfItem(context);
	if (email) details.email = email;
	details.itemIndex = itemIndex;
	context.logger.debug(`AWeber: item ${itemIndex} failed and goes to the error output: ${message}`, { node: context.getNode().name });
	return { json: { error: details }, pairedItem: { item: itemIndex } };
}

/**
 * The address the item is about, as the user gave it (it may be the one refused): its Email field, a subscriber
 * chosen by email, or the Email search filter, where the operation has one.
 */
function emailOfItem(context: IExecuteSingleFunctions): string | undefined {
	for (const name of ['email', 'subscriberId.value', 'filters.email']) {
		let value: unknown;
		try {
			value = context.getNodeParameter(name, '');
		} catch {
			continue;
		}
		const email = typeof value === 'string' ? value.trim() : '';
		if (email !== '' && (name === 'email' || email.includes('@'))) return email;
	}
	return undefined;
}
