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

describe("A subscriber's ID in AWeber's answer is a number or digits as text", () => {
	/** Update by email: AWeber's `find` answers with Grace, her ID as given; the PATCH goes by address. */
	const updateFoundWithId = async (id: unknown) => {
		bed.sandbox.faults.next(1, 'answer', {
			body: { entries: [{ id, email: graceEmail, self_link: `${bed.sandbox.apiBaseUrl}${subscribersPath()}/${grace()}`, custom_fields: graceFields }] },
			method: 'GET',
			pathPrefix: subscribersPath(),
		});
		return await run(bed, 'aWeberSubscriber', {
			operation: 'update',
			...newsletterScope(bed),
			subscriberId: { __rl: true, mode: 'email', value: graceEmail },
			updateFields: { name: 'Grace B. Hopper' },
		});
	};

	it('an ID as digits in text is the subscriber: the change is sent and her custom fields kept', async () => {
		const result = await updateFoundWithId(String(grace() + 1000));
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: graceEmail, name: 'Grace B. Hopper', custom_fields: graceFields })]);
		expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET', 'PATCH']);
	});

	it.each([['with letters after its digits', '1042abc'], ['with letters before them', 'abc1042'], ['empty', '']])(
		'an ID %s is refused before any change',
		async (_case, id) => {
			const result = await updateFoundWithId(id);
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(`AWeber's answer was unexpected: it is not the subscriber ${graceEmail}`);
			expect(apiCalls(bed).map((call) => call.method)).toEqual(['GET']);
		},
	);
});
