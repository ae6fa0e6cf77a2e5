// Broadcast "Schedule For" inside a real n8n whose workflow time zone is set: what n8n's expressions hand the node
// ($now and DateTime.fromISO in the workflow's zone, a DateTime in another zone, a JS Date) is the same instant as the
// typed time; a time the clocks skip fails its item naming the gap; a time they show twice is the earlier one.
import { aweberWorkflow, byId, importWorkflow, nodeItems, runWorkflow, useSandboxN8nAndCredential, type AweberStep } from './lib';

describe('AWeber Broadcast: "Schedule For" around clock changes in n8n', () => {
	const env = useSandboxN8nAndCredential();

	const onDraft = () => ({
		accountId: byId(env.sandbox.seed.accountId),
		listId: byId(env.sandbox.seed.lists.newsletter),
		broadcastId: byId(env.sandbox.seed.broadcasts.draft),
	});
	/** What the node sent AWeber as `scheduled_for`, schedule by schedule. */
	const sentTimes = () =>
		env.sandbox
			.requests()
			.filter((entry) => entry.method === 'POST' && entry.path.endsWith('/schedule'))
			.map((entry) => (entry.body as Record<string, unknown>).scheduled_for);

	async function runIn(timezone: string, name: string, steps: AweberStep[]) {
		const workflow = aweberWorkflow(name, env.credentialId, steps);
		const id = await importWorkflow(env.n8n, { ...workflow, settings: { executionOrder: 'v1', timezone } });
		return await runWorkflow(env.n8n, id);
	}

	it('in Australia/Sydney, the typed time and the same moment from $now, DateTime and a JS Date are one instant', async () => {
		const forms = [
			'2031-07-01T10:00',
			"={{ DateTime.fromISO('2031-07-01T10:00') }}",
			"={{ DateTime.fromISO('2031-07-01T10:00', { zone: 'Australia/Sydney' }).setZone('America/New_York') }}",
			'={{ $now.set({ year: 2031, month: 7, day: 1, hour: 10, minute: 0, second: 0, millisecond: 0 }) }}',
			"={{ new Date('2031-07-01T00:00:00Z') }}",
		];
		const steps = forms.flatMap((scheduledFor, index): AweberStep[] => [
			{ name: `Schedule ${index + 1}`, node: 'aWeberBroadcast', parameters: { operation: 'schedule', ...onDraft(), scheduledFor } },
			{ name: `Cancel ${index + 1}`, node: 'aWeberBroadcast', parameters: { operation: 'cancel', ...onDraft() } },
		]);
		const result = await runIn('Australia/Sydney', 'Schedule forms', steps);
		expect(result.status).toBe('success');
		const instant = Date.parse('2031-07-01T00:00:00Z');
		expect(sentTimes().map((sent) => Date.parse(String(sent)))).toEqual(forms.map(() => instant));
		expect(sentTimes()[0]).toBe('2031-07-01T10:00:00+10:00');
		expect(nodeItems(result, 'Schedule 1')).toEqual([expect.objectContaining({ status: 'scheduled' })]);
	});

	it('in America/New_York, a time the clocks skip fails its item naming the gap; a time they show twice is the earlier', async () => {
		const result = await runIn('America/New_York', 'Schedule around clock changes', [
			{
				name: 'Skipped',
				node: 'aWeberBroadcast',
				parameters: { operation: 'schedule', ...onDraft(), scheduledFor: '2031-03-09T02:30' },
				settings: { onError: 'continueRegularOutput' },
			},
			{ name: 'Repeated', node: 'aWeberBroadcast', parameters: { operation: 'schedule', ...onDraft(), scheduledFor: '2031-11-02T01:30' } },
		]);
		expect(result.status).toBe('success');
		const [skipped] = nodeItems(result, 'Skipped');
		expect(JSON.stringify(skipped)).toContain(
			'The \\"Schedule For\\" field is 02:30 on 2031-03-09, which does not exist in America/New_York: clocks go from 02:00 to 03:00 that day',
		);
		expect(sentTimes()).toEqual(['2031-11-02T01:30:00-04:00']);
	});
});
