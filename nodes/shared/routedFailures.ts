import type { DeclarativeRestApiSettings, IDataObject, IExecutePaginationFunctions, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/* What a routed item that fails becomes: an error-output item (routing.ts A10), or the refusal of a declarative step (A9). */

/** An error thrown by the request path: its headline and description are what n8n shows. */
export type RoutedError = Error & { description?: string | null; httpCode?: string | null };

/** A declarative postReceive step would drop Return All's further pages: refused before anything is sent (docs/architecture.md#return-all-reads-every-page). */
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
 * The error-output item of a failed request (A10): what n8n shows and what identifies the input, all inside `error`,
 * which must be the JSON's only key for n8n 1.x to route it to the error output.
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

/** The address the item is about, as the user gave it: its Email field, a subscriber chosen by email, or the Email filter. */
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
