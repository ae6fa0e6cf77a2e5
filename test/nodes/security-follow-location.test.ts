// The resource AWeber's answer points to (nodes/shared/followLocation.ts): read when the answer names it on the API,
// refused when it names another origin, and not read at all when the answer names nothing. Answers played by the
// sandbox's fault control plane (an `answer` acts on nothing; a `redirect` fault with a 2xx status only sets Location).
import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

const FOREIGN = 'http://127.0.0.1:9';
const calls = () => apiCalls(bed).map((call) => `${call.method} ${call.status}`);

const createCustomField = async () => await run(bed, 'aWeberCustomField', { operation: 'create', ...newsletterScope(bed), name: 'Loyalty tier' });
const cancelBroadcast = async () =>
	await run(bed, 'aWeberBroadcast', { operation: 'cancel', ...newsletterScope(bed), broadcastId: byId(bed.sandbox.seed.broadcasts.sent) });

describe("Custom Field Create: the answer's Location", () => {
	it.each([
		['no Location', () => bed.sandbox.faults.next(1, 'answer', { status: 201, body: {}, method: 'POST' })],
		['an empty Location', () => bed.sandbox.faults.next(1, 'redirect', { status: 201, location: '', method: 'POST' })],
	])('with %s, outputs the answer and reads nothing more', async (_case, fault) => {
		fault();
		const result = await createCustomField();
		expect(result.status).toBe('success');
		expect(calls()).toEqual(['POST 201']);
	});

	it('on another origin: refused, naming the Location header as where the link came from', async () => {
		bed.sandbox.faults.next(1, 'redirect', { status: 201, location: `${FOREIGN}/custom_fields/1`, method: 'POST' });
		const result = await createCustomField();
		expect(result.error?.message).toBe(`Refused to send the AWeber credential to ${FOREIGN}`);
		expect(result.error?.description).toContain("The Location header of AWeber's answer points to");
		expect(calls()).toEqual(['POST 201']);
	});
});

describe("Broadcast Cancel: the answer's self_link", () => {
	it.each([
		['no self_link', {}],
		['an empty self_link', { self_link: '' }],
		['a self_link that is not text', { self_link: 5 }],
	])('with %s, outputs the answer and reads nothing more', async (_case, body) => {
		bed.sandbox.faults.next(1, 'answer', { status: 200, body, method: 'POST' });
		const result = await cancelBroadcast();
		expect(result.status).toBe('success');
		expect(calls()).toEqual(['POST 200']);
	});

	it('answered with JSON null: refused as an unexpected answer, with Simplify on or off, and nothing more is read', async () => {
		for (const simplify of [true, false]) {
			bed.sandbox.faults.next(1, 'answer', { status: 200, body: null, method: 'POST' });
			const result = await run(bed, 'aWeberBroadcast', {
				operation: 'cancel',
				...newsletterScope(bed),
				broadcastId: byId(bed.sandbox.seed.broadcasts.sent),
				simplify,
			});
			expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a JSON object");
			expect(result.error?.description).toContain('AWeber answered an empty answer instead of a JSON object');
			expect(result.error?.description).toContain('AWeber may have carried out the request');
		}
		expect(calls()).toEqual(['POST 200', 'POST 200']);
	});

	it('on another origin: refused, naming the self_link as where the link came from', async () => {
		bed.sandbox.faults.next(1, 'answer', { status: 200, body: { self_link: `${FOREIGN}/broadcasts/1` }, method: 'POST' });
		const result = await cancelBroadcast();
		expect(result.error?.message).toBe(`Refused to send the AWeber credential to ${FOREIGN}`);
		expect(result.error?.description).toContain("The self_link of AWeber's answer points to");
		expect(calls()).toEqual(['POST 200']);
	});
});

describe("Broadcast Create with Schedule For: the draft's self_link", () => {
	it('on another origin: neither scheduled nor read there, and the error names the self_link as where the link came from', async () => {
		bed.sandbox.faults.next(1, 'answer', { status: 201, body: { broadcast_id: 77, status: 'draft', self_link: `${FOREIGN}/broadcasts/77` }, method: 'POST' });
		const result = await run(bed, 'aWeberBroadcast', {
			operation: 'create',
			...newsletterScope(bed),
			subject: 'Flash sale',
			bodyText: 'Now',
			additionalFields: { scheduledFor: new Date(Date.now() + 3 * 86_400_000).toISOString() },
		});
		expect(result.error?.message).toBe(`The broadcast was created as draft 77, but AWeber did not schedule it: Refused to send the AWeber credential to ${FOREIGN}`);
		expect(result.error?.description).toContain("The self_link of AWeber's answer points to");
		expect(result.error?.description).toContain('Schedule the draft with the Schedule operation, or delete it.');
		expect(calls()).toEqual(['POST 201']);
	});
});

