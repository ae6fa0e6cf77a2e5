// What the error says of an answer that is not what AWeber promised (nodes/shared/answers.ts,
// docs/aweber-behaviour.md#answers): its kind and its first characters; and what counts as a subscriber's ID.
import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, listPath, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

const subscribersPath = () => `${listPath(bed)}/subscribers`;
/** Grace Hopper, on Newsletter, with her three custom fields set. */
const grace = () => bed.sandbox.seed.subscribers.subscribed + 1;
const graceEmail = 'grace.hopper@example.com';
const graceFields = { Company: 'Cobol Works', Plan: 'pro', Birthday: '1961-02-11' };

describe('An unexpected answer is named in the error by its kind and its first 80 characters', () => {
	it.each([
		['an HTML page, its spaces and line breaks shown as one space', '  <html>\n  <body>Down   for\tmaintenance</body>\n</html>', 'an HTML page (<html> <body>Down for maintenance</body> </html>)'],
		['text that is not HTML', 'Service Unavailable', 'text (Service Unavailable)'],
		['a JSON array', [1, 'two'], 'a JSON array ([1,"two"])'],
		['a JSON object', { status: 'ok' }, 'a JSON object ({"status":"ok"})'],
		['80 characters, whole', 'x'.repeat(80), `text (${'x'.repeat(80)})`],
		['81 characters, cut at 80', `${'y'.repeat(80)}z`, `text (${'y'.repeat(80)}…)`],
		['text with a < further on', 'Bad Gateway <nginx>', 'text (Bad Gateway <nginx>)'],
		['an empty body', '', 'an empty answer'],
		['JSON null', null, 'an empty answer'],
	])('%s', async (_case, body, described) => {
		bed.sandbox.faults.next(1, 'answer', { body, method: 'GET', pathPrefix: `${subscribersPath()}/${grace()}` });
		const result = await run(bed, 'aWeberSubscriber', {
			operation: 'update',
			...newsletterScope(bed),
			subscriberId: byId(grace()),
			updateFields: { name: 'Grace B. Hopper' },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`AWeber's answer was unexpected: it is not the subscriber ${grace()}`);
		expect(result.error?.description).toBe(
			`While reading the subscriber before changing it, AWeber answered ${described} instead of the subscriber ${grace()}. ` +
				'The node did not act on that answer and changed nothing in AWeber. ' +
				'This is usually a passing fault at AWeber or in a proxy between n8n and AWeber: run the step again later.',
		);
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
	});
});

describe("What counts as a subscriber in AWeber's answer: an ID (a number, or digits as text), a self_link, an email and custom fields", () => {
	const graceAnswer = () => ({ id: grace(), email: graceEmail, self_link: `${bed.sandbox.apiBaseUrl}${subscribersPath()}/${grace()}`, custom_fields: graceFields });

	/** Update by email: AWeber's `find` answers with these entries; the PATCH goes by address. */
	const updateFound = async (entries: unknown[]) => {
		bed.sandbox.faults.next(1, 'answer', { body: { entries }, method: 'GET', pathPrefix: subscribersPath() });
		return await run(bed, 'aWeberSubscriber', {
			operation: 'update',
			...newsletterScope(bed),
			subscriberId: { __rl: true, mode: 'email', value: graceEmail },
			updateFields: { name: 'Grace B. Hopper' },
		});
	};

	it('an ID as digits in text is the subscriber: the change is sent and her custom fields kept', async () => {
		const result = await updateFound([{ ...graceAnswer(), id: String(grace() + 1000) }]);
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: graceEmail, name: 'Grace B. Hopper', custom_fields: graceFields })]);
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET', 'PATCH']);
	});

	it.each([['with letters after its digits', '1042abc'], ['with letters before them', 'abc1042'], ['empty', '']])(
		'an ID %s is refused before any change',
		async (_case, id) => {
			const result = await updateFound([{ ...graceAnswer(), id }]);
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(`AWeber's answer was unexpected: it is not the subscriber ${graceEmail}`);
			expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
		},
	);

	it('Get by email: an answer to its find that is no page is refused, saying which subscriber was looked up', async () => {
		bed.sandbox.faults.next(1, 'answer', { body: { status: 'ok' }, method: 'GET', pathPrefix: subscribersPath() });
		const result = await run(bed, 'aWeberSubscriber', { operation: 'get', ...newsletterScope(bed), subscriberId: { __rl: true, mode: 'email', value: graceEmail } });
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(result.error?.description).toContain(`While looking up the subscriber ${graceEmail}, AWeber answered a JSON object`);
	});

	it('a page whose entries are not all objects is no page: refused before any change', async () => {
		const result = await updateFound([graceAnswer(), 'stray text']);
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
	});

	/** Update by ID: AWeber's read of the subscriber answers `body`. */
	const updateRead = async (body: unknown) => {
		bed.sandbox.faults.next(1, 'answer', { body, method: 'GET', pathPrefix: `${subscribersPath()}/${grace()}` });
		return await run(bed, 'aWeberSubscriber', { operation: 'update', ...newsletterScope(bed), subscriberId: byId(grace()), updateFields: { name: 'Grace B. Hopper' } });
	};

	it('the whole subscriber, as read: the change is sent', async () => {
		const result = await updateRead(graceAnswer());
		expect(result.status).toBe('success');
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET', 'PATCH']);
	});

	it.each([
		['its ID as a list', (whole: Record<string, unknown>) => ({ ...whole, id: [whole.id] })],
		['no self_link', (whole: Record<string, unknown>) => ({ ...whole, self_link: undefined })],
		['its email null', (whole: Record<string, unknown>) => ({ ...whole, email: null })],
		['its custom fields as a list', (whole: Record<string, unknown>) => ({ ...whole, custom_fields: Object.values(graceFields) })],
		['its custom fields null', (whole: Record<string, unknown>) => ({ ...whole, custom_fields: null })],
		['another subscriber\'s ID: her fields would be written onto Grace', (whole: Record<string, unknown>) => ({ ...whole, id: grace() + 1 })],
	])('with %s: refused before any change', async (_case, change) => {
		const result = await updateRead(change(graceAnswer()));
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`AWeber's answer was unexpected: it is not the subscriber ${grace()}`);
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
	});
});
