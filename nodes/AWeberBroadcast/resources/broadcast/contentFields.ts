import type { INodeProperties } from 'n8n-workflow';

import { aweberLocator, listLocator } from '../../../shared/descriptions';

export const subjectField: INodeProperties = {
	displayName: 'Subject',
	name: 'subject',
	type: 'string',
	default: '',
	placeholder: 'Spring sale starts today',
	description: 'Subject line of the email (at most 120 characters)',
};

export const bodyHtmlField: INodeProperties = {
	displayName: 'HTML Body',
	name: 'bodyHtml',
	type: 'string',
	typeOptions: { rows: 6 },
	default: '',
	description: 'The email as HTML. AWeber makes the text version from it when no text body is given.',
};

export const bodyTextField: INodeProperties = {
	displayName: 'Text Body',
	name: 'bodyText',
	type: 'string',
	typeOptions: { rows: 6 },
	default: '',
	description: 'The plain-text version of the email',
};

/**
 * How "Schedule For" is read, for both fields that take it (Schedule, and Create's Additional Fields): the rules
 * scheduleTime.ts applies, in the words users see.
 */
const SCHEDULE_TIME_RULES =
	"A time without a zone is in the workflow's time zone. A time the clocks skip when they go forward is refused; a time they show twice when they go back is the first of the two, in every zone (for the second, give its offset). A time with an offset or Z, and a date from an expression ($now, DateTime, a JS Date), is that moment whatever the workflow's zone. A time in the past is refused.";

export function scheduleForField(lead: string, required: boolean): INodeProperties {
	return {
		displayName: 'Schedule For',
		name: 'scheduledFor',
		type: 'dateTime',
		...(required ? { required: true } : {}),
		default: '',
		description: `${lead} ${SCHEDULE_TIME_RULES}`,
	};
}

function listsField(name: string, displayName: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add List',
		default: {},
		description,
		options: [
			{
				displayName: 'Lists',
				name: 'lists',
				values: [{ ...listLocator, name: 'list', description: 'A list of the same account' }],
			},
		],
	};
}

function integrationField(name: string, displayName: string, searchMethod: string, example: string): INodeProperties {
	return {
		...aweberLocator({
			name,
			displayName,
			searchMethod,
			urlSegment: 'integrations',
			urlExample: `https://api.aweber.com/1.0/accounts/123456/integrations/${example}`,
			idPlaceholder: example,
			description: `Also post the broadcast to this ${displayName.replace(' Integration', '')} account when it is sent`,
		}),
		required: false,
	};
}

/** Settings shared by create and update (AWeber's CreateBroadcast / UpdateBroadcast form fields), sorted for the panel. */
export const broadcastSettingFields: INodeProperties[] = [
	{
		displayName: 'AMP Body',
		name: 'bodyAmp',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		description: 'An AMP for Email version of the message',
	},
	{
		displayName: 'Archive',
		name: 'isArchived',
		type: 'boolean',
		default: true,
		description: "Whether the broadcast appears in the list's public archive once sent",
	},
	{
		displayName: 'Click Tracking',
		name: 'clickTrackingEnabled',
		type: 'boolean',
		default: true,
		description: 'Whether AWeber tracks clicks on the links in the broadcast',
	},
	listsField('excludeLists', 'Exclude Lists', 'Subscribers of these lists do not receive the broadcast (replaces the ones set before)'),
	integrationField('facebookIntegration', 'Facebook Integration', 'searchFacebookIntegrations', '301'),
	listsField('includeLists', 'Include Lists', 'Subscribers of these lists also receive the broadcast (replaces the ones set before)'),
	{
		displayName: 'Notify on Send',
		name: 'notifyOnSend',
		type: 'boolean',
		default: true,
		description: 'Whether AWeber emails the account owner when the broadcast has been sent',
	},
	{
		...aweberLocator({
			name: 'segment',
			displayName: 'Segment',
			searchMethod: 'searchBroadcastSegments',
			urlSegment: 'segments',
			urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/segments/7001',
			idPlaceholder: '7001',
			description: 'Send only to this segment of the list (by default: all active subscribers). Split-test segments are not allowed.',
		}),
		required: false,
	},
	integrationField('twitterIntegration', 'Twitter Integration', 'searchTwitterIntegrations', '302'),
];

/** n8n shows a collection's options in the order given; keep them alphabetical like n8n's own nodes. */
export function byDisplayName(fields: INodeProperties[]): INodeProperties[] {
	return [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName));
}
