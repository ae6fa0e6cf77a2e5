import type { DeclarativeRestApiSettings, IDataObject, IExecutePaginationFunctions, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/*
 * What a routed item that fails becomes (routing.ts): an item of the error output, and the refusal of an operation
 * that breaks the rule keeping Return All whole. The assumptions about RoutingNode they rely on are listed in
 * routing.ts (A9, A10).
 */

/** An error thrown by the request path: its headline and description are what n8n shows. */
export type RoutedError = Error & { description?: string | null; httpCode?: string | null };

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
