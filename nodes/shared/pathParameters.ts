import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

interface PathParameter {
	/** The field's label, as the user sees it. */
	label: string;
	pattern: RegExp;
	expected: string;
}

const NUMERIC = { pattern: /^\d+$/, expected: 'a numeric AWeber ID' };

/** Every `{name}` a routed URL may contain, with the field that fills it and what AWeber accepts there. */
export const PATH_PARAMETERS: Record<string, PathParameter> = {
	accountId: { label: 'Account', ...NUMERIC },
	listId: { label: 'List', ...NUMERIC },
	destinationListId: { label: 'Destination List', ...NUMERIC },
	subscriberId: { label: 'Subscriber', pattern: /^\d+$/, expected: 'a numeric AWeber ID or an email address' },
	customFieldId: { label: 'Custom Field', ...NUMERIC },
	integrationId: { label: 'Integration', ...NUMERIC },
	broadcastId: { label: 'Broadcast', ...NUMERIC },
	campaignId: {
		label: 'Campaign',
		pattern: /^[bf]\d+$/,
		expected: 'a campaign ID such as b123 (broadcast) or f456 (follow-up)',
	},
	messageId: { label: 'Message', ...NUMERIC },
	openId: { label: 'Open', ...NUMERIC },
	trackedEventId: { label: 'Tracked Event', ...NUMERIC },
	statisticId: { label: 'Statistic', pattern: /^[a-z_]+$/, expected: 'a statistic ID such as total_opens' },
	segmentId: { label: 'Segment', ...NUMERIC },
	webFormId: { label: 'Web Form', ...NUMERIC },
	splitTestId: { label: 'Split Test', ...NUMERIC },
	splitTestComponentId: { label: 'Split Test Component', pattern: /^[\w-]+$/, expected: 'a split test component ID' },
	landingPageId: { label: 'Landing Page', pattern: /^[\w-]+$/, expected: 'a landing page ID' },
};

/**
 * Fills `{accountId}`-style placeholders of a routed URL from the node's fields.
 * Resource locators are read with their "by URL" extraction applied, and a value that cannot be an
 * AWeber ID is refused before any request, naming the field.
 */
export async function resolvePathParameters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.url = requestOptions.url.replace(/\{(\w+)\}/g, (_placeholder, name: string) =>
		encodeURIComponent(readPathParameter(this, name)),
	);
	return requestOptions;
}

export function readPathParameter(context: IExecuteSingleFunctions, name: string): string {
	const parameter = PATH_PARAMETERS[name];
	const label = parameter?.label ?? name;
	const raw = context.getNodeParameter(name, undefined, { extractValue: true }) as unknown;
	const value = (typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : '').trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `The "${label}" field is empty`, {
			description: `Choose a ${label.toLowerCase()} from the list, or enter its ID or URL.`,
			itemIndex: context.getItemIndex(),
		});
	}
	if (parameter && !parameter.pattern.test(value)) {
		throw new NodeOperationError(context.getNode(), `The "${label}" field must be ${parameter.expected}, not "${value}"`, {
			description: `Choose a ${label.toLowerCase()} from the list, or enter its ID or its AWeber URL.`,
			itemIndex: context.getItemIndex(),
		});
	}
	return value;
}
