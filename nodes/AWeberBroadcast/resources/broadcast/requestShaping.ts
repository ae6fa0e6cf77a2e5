import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../../shared/errors';
import { describeType } from '../../../shared/fieldValidation';
import { readPathParameter } from '../../../shared/pathParameters';
import { aweberApiRequest, aweberGet } from '../../../shared/transport';
import { parseScheduleTime, type ScheduleTime } from './scheduleTime';

export const SUBJECT_MAX_LENGTH = 120;
/** AWeber refuses broadcast bodies over 1,000,000 bytes. */
export const BROADCAST_MAX_BYTES = 1_000_000;
/** AWeber's own sample schedules at "now"; a time this little in the past is still "now", not a mistake. */
export const SCHEDULE_TOLERANCE_MS = 60_000;

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Which collection holds the broadcast's fields: create keeps subject and bodies at the top level. */
type BroadcastFieldsSource = 'additionalFields' | 'updateFields';

function fail(context: IExecuteSingleFunctions, message: string, description?: string): never {
	throw new NodeOperationError(context.getNode(), message, { description, itemIndex: context.getItemIndex() });
}

/**
 * A numeric id from a locator (or list of locators) nested in a collection; empty (or null from an expression) means
 * "not set". Anything else that is no number or text is refused: left out, a segment would widen the broadcast to the list.
 */
function readNestedId(context: IExecuteSingleFunctions, path: string, label: string): string | undefined {
	const raw = context.getNodeParameter(path, undefined, { extractValue: true }) as unknown;
	const advice = `Choose the ${label.toLowerCase()} from the list, or enter its ID or URL.`;
	if (raw === undefined || raw === null) return undefined;
	if (typeof raw !== 'number' && typeof raw !== 'string') {
		fail(context, `The "${label}" field must be a numeric AWeber ID, not ${describeType(raw)}`, advice);
	}
	const value = String(raw).trim();
	if (value === '') return undefined;
	if (!/^\d+$/.test(value)) fail(context, `The "${label}" field must be a numeric AWeber ID, not "${value}"`, advice);
	return value;
}

/** The chosen lists of a list field the user added (the caller checks it is there). */
function readListIds(context: IExecuteSingleFunctions, path: string, label: string): string[] {
	const chosen = context.getNodeParameter(path, {}) as { lists?: unknown[] };
	return (chosen.lists ?? []).map((_entry, index) => {
		const id = readNestedId(context, `${path}.lists[${index}].list`, label);
		if (id === undefined) fail(context, `List ${index + 1} of "${label}" is empty`, 'Choose a list or remove the empty entry.');
		return id;
	});
}

function checkSubject(context: IExecuteSingleFunctions, subject: string): void {
	if (subject.trim() === '') fail(context, 'The "Subject" field is empty', 'AWeber needs a subject that is not only spaces.');
	if (subject.length > SUBJECT_MAX_LENGTH) {
		fail(
			context,
			`The "Subject" field is ${subject.length} characters long; AWeber allows at most ${SUBJECT_MAX_LENGTH}`,
			'Shorten the subject.',
		);
	}
}

/** Reads "Schedule For", in the workflow's time zone when it has none, and refuses a time in the past. */
export function readScheduleTime(context: IExecuteSingleFunctions, parameterPath: string): ScheduleTime {
	const value = context.getNodeParameter(parameterPath, undefined) as unknown;
	if (value === undefined || value === null || value === '') fail(context, 'The "Schedule For" field is empty', 'Pick the date and time to send the broadcast.');
	const timeZone = context.getTimezone();
	const parsed = parseScheduleTime(value, timeZone);
	if ('problem' in parsed) fail(context, 'The "Schedule For" field is not a valid date and time', parsed.problem);
	if ('gap' in parsed) {
		const { date, time, from, to, firstAfter } = parsed.gap;
		fail(
			context,
			`The "Schedule For" field is ${time} on ${date}, which does not exist in ${timeZone}: clocks go from ${from} to ${to} that day`,
			`Pick a time before ${from} or from ${to} on (e.g. ${firstAfter}, when the clocks have changed). A time without a zone is read in the workflow's time zone (${timeZone}, set in the workflow's settings).`,
		);
	}
	const { time } = parsed;
	if (time.epochMs < Date.now() - SCHEDULE_TOLERANCE_MS) {
		fail(
			context,
			`The "Schedule For" time ${time.iso} is in the past`,
			`AWeber only schedules broadcasts for now or later. A time without a zone is read in the workflow's time zone (${timeZone}).`,
		);
	}
	return time;
}

function setFormBody(requestOptions: IHttpRequestOptions, form: URLSearchParams): IHttpRequestOptions {
	requestOptions.body = form.toString();
	requestOptions.headers = { ...requestOptions.headers, 'Content-Type': FORM_CONTENT_TYPE };
	return requestOptions;
}

/**
 * Create and update: AWeber takes broadcasts form-encoded only, with include/exclude lists as a JSON array
 * of list links inside the form field and the segment and integrations as their links. Users only pick.
 */
function broadcastFormBody(isCreate: boolean) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		return buildBroadcastForm(this, requestOptions, isCreate);
	};
}

export const createBroadcastFormBody = broadcastFormBody(true);
export const updateBroadcastFormBody = broadcastFormBody(false);

function buildBroadcastForm(
	context: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
	isCreate: boolean,
): IHttpRequestOptions {
	const source: BroadcastFieldsSource = isCreate ? 'additionalFields' : 'updateFields';
	const fields = context.getNodeParameter(source, {}) as IDataObject;
	const text = (name: string): string | undefined => {
		const value = isCreate && ['subject', 'bodyHtml', 'bodyText'].includes(name) ? context.getNodeParameter(name, '') : fields[name];
		return value === undefined || value === null ? undefined : String(value);
	};
	const subject = text('subject');
	const bodyHtml = text('bodyHtml');
	const bodyText = text('bodyText');
	const bodyAmp = text('bodyAmp');

	if (isCreate || subject !== undefined) checkSubject(context, subject ?? '');
	if (isCreate && !bodyHtml?.trim() && !bodyText?.trim()) {
		fail(context, 'The broadcast has no content', 'Fill in "HTML Body" or "Text Body" (AWeber makes the text version from the HTML one when only HTML is given).');
	}

	const apiBase = String(requestOptions.baseURL ?? '').replace(/\/+$/, '');
	const accountPath = `${apiBase}/accounts/${readPathParameter(context, 'accountId')}`;
	const listPath = `${accountPath}/lists/${readPathParameter(context, 'listId')}`;
	const listLinks = (ids: string[]) => JSON.stringify(ids.map((id) => `${accountPath}/lists/${id}`));

	const form = new URLSearchParams();
	const put = (field: string, value: string | undefined) => {
		if (value !== undefined) form.set(field, value);
	};
	put('subject', subject);
	// Create leaves an empty body out (AWeber makes the text one from the HTML one); Update sends it, to empty it.
	if (bodyHtml !== '' || !isCreate) put('body_html', bodyHtml);
	if (bodyText !== '' || !isCreate) put('body_text', bodyText);
	put('body_amp', bodyAmp);
	for (const [parameter, field] of [
		['clickTrackingEnabled', 'click_tracking_enabled'],
		['isArchived', 'is_archived'],
		['notifyOnSend', 'notify_on_send'],
	]) {
		if (typeof fields[parameter] === 'boolean') put(field, String(fields[parameter]));
	}
	const includeLists = 'includeLists' in fields ? readListIds(context, `${source}.includeLists`, 'Include Lists') : undefined;
	const excludeLists = 'excludeLists' in fields ? readListIds(context, `${source}.excludeLists`, 'Exclude Lists') : undefined;
	if (includeLists) put('include_lists', listLinks(includeLists));
	if (excludeLists) put('exclude_lists', listLinks(excludeLists));
	const segment = 'segment' in fields ? readNestedId(context, `${source}.segment`, 'Segment') : undefined;
	if (segment) put('segment_link', `${listPath}/segments/${segment}`);
	for (const [parameter, field, label] of [
		['facebookIntegration', 'facebook_integration', 'Facebook Integration'],
		['twitterIntegration', 'twitter_integration', 'Twitter Integration'],
	]) {
		const integration = parameter in fields ? readNestedId(context, `${source}.${parameter}`, label) : undefined;
		if (integration) put(field, `${accountPath}/integrations/${integration}`);
	}
	// Checked now so a bad or past time fails before a draft is created; scheduleCreatedBroadcast sends it.
	if (isCreate && fields.scheduledFor !== undefined && fields.scheduledFor !== '') {
		readScheduleTime(context, `${source}.scheduledFor`);
	}

	if (!isCreate && [...form.keys()].length === 0) {
		fail(context, 'Nothing to update', 'Add at least one field under "Update Fields".');
	}
	const body = form.toString();
	if (Buffer.byteLength(body) > BROADCAST_MAX_BYTES) {
		fail(
			context,
			`The broadcast is ${Buffer.byteLength(body)} bytes once encoded; AWeber accepts at most ${BROADCAST_MAX_BYTES}`,
			'Shorten the bodies, or host large images instead of embedding them.',
		);
	}
	return setFormBody(requestOptions, form);
}

/** Schedule: `scheduled_for` as ISO-8601 with the offset, form-encoded. */
export async function scheduleFormBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const time = readScheduleTime(this, 'scheduledFor');
	return setFormBody(requestOptions, new URLSearchParams({ scheduled_for: time.iso }));
}

/**
 * Create with "Schedule For": the draft AWeber returned is scheduled at once and read back, so one step
 * drafts and schedules and the output shows the scheduled broadcast.
 */
export async function scheduleCreatedBroadcast(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const fields = this.getNodeParameter('additionalFields', {}) as IDataObject;
	if (fields.scheduledFor === undefined || fields.scheduledFor === '') return items;
	const draft = response.body as IDataObject;
	const selfLink = String(draft.self_link ?? '');
	const source = "the self_link of AWeber's answer";
	const time = readScheduleTime(this, 'additionalFields.scheduledFor');
	try {
		await aweberApiRequest(this, {
			method: 'POST',
			url: `${selfLink}/schedule`,
			body: new URLSearchParams({ scheduled_for: time.iso }).toString(),
			form: true,
			itemIndex: this.getItemIndex(),
			source,
		});
	} catch (error) {
		// AWeber's refusal, or the package's own (a self_link outside the API): each keeps its description.
		const refusal = asNodeError(this.getNode(), error, this.getItemIndex());
		refusal.message = `The broadcast was created as draft ${String(draft.broadcast_id)}, but AWeber did not schedule it: ${refusal.message}`;
		refusal.description = `Schedule the draft with the Schedule operation, or delete it.\n${refusal.description ?? ''}`;
		throw refusal;
	}
	return [{ json: await aweberGet(this, selfLink, undefined, { source }) }];
}

/** Statistics as readable items: id, description and value (a list of points for the time series). */
export async function readableStatistics(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const broadcastId = Number(readPathParameter(this, 'broadcastId'));
	const readable = (stat: IDataObject): IDataObject => ({
		broadcast_id: broadcastId,
		id: stat.id,
		description: stat.description,
		value: stat.value,
	});
	return items.map((item) => {
		const body = item.json;
		// Keep the collection envelope: the shared pager reads `entries` and `next_collection_link`.
		if (Array.isArray(body.entries)) return { json: { ...body, entries: (body.entries as IDataObject[]).map(readable) } };
		return { json: readable(body) };
	});
}
