import type { IExecuteSingleFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

interface PathParameter {
	/** The field's label, as the user sees it. */
	label: string;
	pattern: RegExp;
	expected: string;
}

/** AWeber's numeric IDs fit in 64 bits (docs/aweber-behaviour.md#ids): at most 20 digits. */
const NUMERIC = { pattern: /^\d{1,20}$/, expected: 'a numeric AWeber ID' };

/** Every `{name}` a routed URL may contain, with the field that fills it and what AWeber accepts there. */
export const PATH_PARAMETERS: Record<string, PathParameter> = {
	accountId: { label: 'Account', ...NUMERIC },
	listId: { label: 'List', ...NUMERIC },
	destinationListId: { label: 'Destination List', ...NUMERIC },
	subscriberId: { label: 'Subscriber', pattern: /^\d{1,20}$/, expected: 'a numeric AWeber ID or an email address' },
	customFieldId: { label: 'Custom Field', ...NUMERIC },
	integrationId: { label: 'Integration', ...NUMERIC },
	broadcastId: { label: 'Broadcast', ...NUMERIC },
	campaignId: {
		label: 'Campaign',
		pattern: /^[bf]\d{1,20}$/,
		expected: 'a campaign ID such as b123 (broadcast) or f456 (follow-up)',
	},
	messageId: { label: 'Message', ...NUMERIC },
	openId: { label: 'Open', ...NUMERIC },
	trackedEventId: { label: 'Tracked Event', ...NUMERIC },
	statisticId: { label: 'Statistic', pattern: /^[a-z_]{1,64}$/, expected: 'a statistic ID such as total_opens' },
	segmentId: { label: 'Segment', ...NUMERIC },
	webFormId: { label: 'Web Form', ...NUMERIC },
	splitTestId: { label: 'Split Test', ...NUMERIC },
	splitTestComponentId: { label: 'Split Test Component', pattern: /^[\w-]{1,64}$/, expected: 'a split test component ID (at most 64 characters)' },
	landingPageId: { label: 'Landing Page', pattern: /^[\w-]{1,64}$/, expected: 'a landing page ID (at most 64 characters)' },
};

/** Fills a routed URL's `{accountId}`-style placeholders from the node's fields (locators by URL extracted), checked. */
export async function resolvePathParameters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.url = fillPathParameters(this, requestOptions.url);
	return requestOptions;
}

/** The URL with its `{placeholders}` filled; a URL without any comes back as it is (filling twice is harmless). */
export function fillPathParameters(context: IExecuteSingleFunctions, url: string): string {
	return url.replace(/\{(\w+)\}/g, (_placeholder, name: string) => encodeURIComponent(readPathParameter(context, name)));
}

/** A numeric ID must fit AWeber's 64-bit IDs; other IDs are bounded by their pattern. */
function fitsAweberId(value: string): boolean {
	const digits = /^[bf]?(\d+)$/.exec(value)?.[1];
	return digits === undefined || BigInt(digits) < 2n ** 64n;
}

export function readPathParameter(context: IExecuteSingleFunctions, name: string): string {
	const raw = context.getNodeParameter(name, undefined, { extractValue: true }) as unknown;
	return checkPathParameter(context.getNode(), name, raw, context.getItemIndex());
}

/** What an ID field holds, as text: a number or a text trimmed; anything else (`null`, an object) is no ID, so empty. */
export function idFieldText(raw: unknown): string {
	return (typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : '').trim();
}

/** The value for `{name}`, trimmed and checked wherever it comes from (a routed URL, a picker's parent, a trigger's list). */
export function checkPathParameter(node: INode, name: string, raw: unknown, itemIndex?: number): string {
	// Every `{placeholder}` of a routed URL is in the table (test/contract/operations.test.ts).
	const { label, pattern, expected } = PATH_PARAMETERS[name];
	const value = idFieldText(raw);
	if (value === '') {
		throw new NodeOperationError(node, `The "${label}" field is empty`, {
			description: `Choose a ${label.toLowerCase()} from the list, or enter its ID or URL.`,
			itemIndex,
		});
	}
	if (!(pattern.test(value) && fitsAweberId(value))) {
		const shown = value.length > 40 ? `"${value.slice(0, 40)}…" (${value.length} characters)` : `"${value}"`;
		const tooLong = value.length > 20 || !fitsAweberId(value) ? ', at most 20 digits long (AWeber\'s IDs fit in 64 bits)' : '';
		const wanted = /^[bf]?\d+$/.test(value) && tooLong ? `${expected}${tooLong}` : expected;
		throw new NodeOperationError(node, `The "${label}" field must be ${wanted}, not ${shown}`, {
			description: `Choose a ${label.toLowerCase()} from the list, or enter its ID or its AWeber URL.`,
			itemIndex,
		});
	}
	return value;
}
