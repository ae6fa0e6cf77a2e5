// What the Broadcast node checks before it sends anything, and what it tells the user: an empty or unreadable
// "Schedule For", a time in the past (a little in the past is "now"), the subject on Update too, bodies of only
// spaces, an Update without fields, a body over AWeber's limit, lists and integrations named in their errors.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

const broadcast = (parameters: IDataObject, items?: IDataObject[]) => run(bed, 'aWeberBroadcast', { ...newsletterScope(bed), ...parameters }, items ? { items } : {});
const draft = () => byId(bed.sandbox.seed.broadcasts.draft);
const create = (additionalFields: IDataObject = {}, overrides: IDataObject = {}) =>
	broadcast({ operation: 'create', subject: 'Spring sale', bodyText: 'Hello', additionalFields, ...overrides });
const isoAgo = (ms: number) => new Date(Date.now() - ms).toISOString();
const writes = () => apiCalls(bed).filter((call) => call.method !== 'GET');

describe('AWeber Broadcast node: "Schedule For"', () => {
	it.each([
		['empty text', ''],
		['null', null],
	])('a time that is %s from an expression is named as empty, before any request', async (_case, when) => {
		const result = await broadcast({ operation: 'schedule', broadcastId: draft(), scheduledFor: '={{ $json.when }}' }, [{ when }]);
		expect(result.error?.message).toBe('The "Schedule For" field is empty');
		expect(result.error?.description).toBe('Pick the date and time to send the broadcast.');
		expect(writes()).toEqual([]);
	});

	it('a text that is no date and time is refused with what is wrong with it', async () => {
		const result = await broadcast({ operation: 'schedule', broadcastId: draft(), scheduledFor: 'next tuesday' });
		expect(result.error?.message).toBe('The "Schedule For" field is not a valid date and time');
		expect(result.error?.description).toMatch(/^"next tuesday" is not a/);
		expect(writes()).toEqual([]);
	});

	it('a time two minutes ago is refused as in the past; half a minute ago is still "now" and is sent', async () => {
		const past = await broadcast({ operation: 'schedule', broadcastId: draft(), scheduledFor: isoAgo(120_000) });
		expect(past.error?.message).toMatch(/^The "Schedule For" time .* is in the past$/);
		expect(past.error?.description).toMatch(/^AWeber only schedules broadcasts for now or later\. A time without a zone is read in the workflow's time zone \(.+\)\.$/);
		expect(writes()).toEqual([]);

		await broadcast({ operation: 'schedule', broadcastId: draft(), scheduledFor: isoAgo(30_000) });
		expect(writes()).toEqual([expect.objectContaining({ method: 'POST', path: expect.stringMatching(/\/schedule$/) })]);
	});

	it('Create with an empty "Schedule For" creates a draft and schedules nothing', async () => {
		const result = await create({ scheduledFor: '' });
		expect(result.status).toBe('success');
		expect(writes()).toEqual([expect.objectContaining({ method: 'POST', path: expect.stringMatching(/\/broadcasts$/) })]);
	});
});

describe('AWeber Broadcast node: subject, bodies and fields', () => {
	it('takes a subject of exactly 120 characters; Update refuses one of 121 as Create does', async () => {
		expect((await create({}, { subject: 's'.repeat(120) })).status).toBe('success');
		const update = await broadcast({ operation: 'update', broadcastId: draft(), updateFields: { subject: 's'.repeat(121) } });
		expect(update.error?.message).toBe('The "Subject" field is 121 characters long; AWeber allows at most 120');
		expect(writes()).toHaveLength(1);
	});

	it.each([
		['only spaces', { bodyHtml: '  \n', bodyText: ' ' }],
		['none, the text one made null by an expression', { bodyHtml: '', bodyText: '={{ null }}' }],
	])('Create with bodies of %s has no content', async (_case, bodies) => {
		const result = await create({}, bodies);
		expect(result.error?.message).toBe('The broadcast has no content');
		expect(result.error?.description).toBe('Fill in "HTML Body" or "Text Body" (AWeber makes the text version from the HTML one when only HTML is given).');
		expect(writes()).toEqual([]);
	});

	it.each([
		['bodyHtml', 'bodyText', 'body_html', 'body_text'],
		['bodyText', 'bodyHtml', 'body_text', 'body_html'],
	])('Create takes a %s that an expression made null as none, and sends the other body', async (nulled, other, nulledField, otherField) => {
		const result = await create({}, { [nulled]: '={{ null }}', [other]: 'Hello' });
		expect(result.status).toBe('success');
		expect(writes()[0].body).toMatchObject({ [otherField]: 'Hello' });
		expect(writes()[0].body).not.toHaveProperty(nulledField);
	});

	it('an Update without fields says what to add', async () => {
		const result = await broadcast({ operation: 'update', broadcastId: draft(), updateFields: {} });
		expect(result.error?.message).toBe('Nothing to update');
		expect(result.error?.description).toBe('Add at least one field under "Update Fields".');
	});

	it('a body over AWeber\'s 1,000,000 bytes is refused before any request, with what to do', async () => {
		const result = await create({}, { bodyText: 'x'.repeat(1_000_001) });
		expect(result.error?.message).toMatch(/^The broadcast is \d+ bytes once encoded; AWeber accepts at most 1000000$/);
		expect(result.error?.description).toBe('Shorten the bodies, or host large images instead of embedding them.');
		expect(writes()).toEqual([]);
	});

	it('sends no list fields when none are chosen, and names an empty list entry', async () => {
		await create();
		expect(writes()[0].body).not.toHaveProperty('include_lists');
		const result = await create({ includeLists: { lists: [{ list: { __rl: true, mode: 'id', value: '' } }] } });
		expect(result.error?.message).toBe('List 1 of "Include Lists" is empty');
		expect(result.error?.description).toBe('Choose a list or remove the empty entry.');
	});

	it.each([
		['facebookIntegration', 'Facebook Integration'],
		['twitterIntegration', 'Twitter Integration'],
	])('names the %s field when its ID is not one', async (parameter, label) => {
		const result = await create({ [parameter]: { __rl: true, mode: 'id', value: 'abc' } });
		expect(result.error?.message).toBe(`The "${label}" field must be a numeric AWeber ID, not "abc"`);
	});
});
