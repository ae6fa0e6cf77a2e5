// "Schedule For" around clock changes, run through n8n (its expression engine, its Continue On Fail) in workflows
// whose time-zone setting is a zone of the north or the south: a time the clocks skip fails its own item naming
// the gap, a time they show twice is the earlier one, and a typed time equals the same moment from an expression.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, newsletterScope } from './email-nodes.helpers';

const bed = useTestbed();

/** The Schedule operation on the seed's draft, one run per item, in a workflow set to `timezone`. */
async function schedule(scheduledFor: string, timezone: string, items: IDataObject[] = [{}]) {
	const node = bed.harness.toNode(
		{
			type: 'aWeberBroadcast',
			credentialId: bed.credentialId,
			parameters: { ...newsletterScope(bed), operation: 'schedule', broadcastId: byId(bed.sandbox.seed.broadcasts.draft), scheduledFor },
			continueOnFail: true,
		},
		'Node Under Test',
	);
	const result = await bed.harness.run({ nodes: [node], connections: {}, settings: { timezone } }, { inputItems: items, startNode: node.name });
	return result.output(node.name);
}

/** What the node sent AWeber as `scheduled_for` on each schedule request. */
const sentTimes = () => apiCalls(bed).filter((call) => call.method === 'POST').map((call) => (call.body as IDataObject).scheduled_for);

async function cancelDraft() {
	await bed.harness.runNode({
		type: 'aWeberBroadcast',
		credentialId: bed.credentialId,
		parameters: { ...newsletterScope(bed), operation: 'cancel', broadcastId: byId(bed.sandbox.seed.broadcasts.draft) },
	});
	bed.sandbox.clearRequests();
}

describe('"Schedule For" around clock changes, in n8n', () => {
	it.each([
		['America/New_York', '2031-03-09T02:30', '2031-03-09', '02:00', '03:00', '2031-03-09T03:00:00-04:00'],
		['Australia/Sydney', '2031-10-05T02:30', '2031-10-05', '02:00', '03:00', '2031-10-05T03:00:00+11:00'],
	])('in %s, a time the clocks skip fails its own item naming the gap; the next item is scheduled', async (zone, skipped, date, from, to, firstAfter) => {
		const [refused, scheduled] = await schedule('={{ $json.when }}', zone, [{ when: skipped }, { when: `${date}T${to}` }]);
		expect(refused.error?.message).toBe(`The "Schedule For" field is 02:30 on ${date}, which does not exist in ${zone}: clocks go from ${from} to ${to} that day`);
		expect(refused.error?.description).toBe(
			`Pick a time before ${from} or from ${to} on (e.g. ${firstAfter}, when the clocks have changed). A time without a zone is read in the workflow's time zone (${zone}, set in the workflow's settings).`,
		);
		expect(scheduled.json).toMatchObject({ status: 'scheduled' });
		expect(sentTimes()).toEqual([firstAfter]);
	});

	it.each([
		['Europe/Berlin', '2031-10-26T02:30', '2031-10-26T02:30:00+02:00'],
		['America/New_York', '2031-11-02T01:30', '2031-11-02T01:30:00-04:00'],
		['Pacific/Auckland', '2031-04-06T02:30', '2031-04-06T02:30:00+13:00'],
		['Australia/Sydney', '2031-04-06T02:30', '2031-04-06T02:30:00+11:00'],
	])('in %s, a time the clocks show twice is sent as the earlier of the two', async (zone, typed, sent) => {
		const [scheduled] = await schedule(typed, zone);
		expect(scheduled.error).toBeUndefined();
		expect(sentTimes()).toEqual([sent]);
		expect(Date.parse(String(scheduled.json.scheduled_for))).toBe(Date.parse(sent));
	});

	// The moment 10:00 on 1 July 2031 in the zone (winter in Sydney, summer in New York), typed and as expressions give it.
	it.each([
		['Australia/Sydney', '2031-07-01T00:00:00Z'],
		['America/New_York', '2031-07-01T14:00:00Z'],
	])('in %s, a typed time and the same moment from a DateTime, $now, a JS Date or ISO text are one instant', async (zone, instant) => {
		const forms = [
			'2031-07-01T10:00',
			"={{ DateTime.fromISO('2031-07-01T10:00') }}",
			`={{ DateTime.fromISO('2031-07-01T10:00', { zone: '${zone}' }) }}`,
			`={{ DateTime.fromISO('2031-07-01T10:00', { zone: '${zone}' }).setZone('Asia/Kolkata') }}`,
			'={{ $now.set({ year: 2031, month: 7, day: 1, hour: 10, minute: 0, second: 0, millisecond: 0 }) }}',
			`={{ new Date('${instant}') }}`,
			instant,
			`={{ DateTime.fromISO('${instant}').toISO() }}`,
		];
		for (const form of forms) {
			const [scheduled] = await schedule(form, zone);
			expect({ form, error: scheduled.error?.message }).toEqual({ form, error: undefined });
			expect({ form, sent: Date.parse(String(sentTimes()[0])) }).toEqual({ form, sent: Date.parse(instant) });
			await cancelDraft();
		}
	});
});
