// The Webhook Trigger's activation: nothing to register at AWeber (its webhooks are set up in AWeber's app settings,
// docs/triggers.md), one request to check the credential, and a warning when deliveries would go unverified.
import { useTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { ALL_EVENTS, KEY, useWebhookReceivers } from './webhook-trigger.helpers';

describe('AWeber Webhook Trigger lifecycle (nothing to register at AWeber)', () => {
	const bed = useTestbed({ timeScale: 1, credential: { webhookVerificationSecret: KEY } });
	const receiver = useWebhookReceivers(bed);

	it('checks with one request that the credential reaches the account, and registers nothing', async () => {
		const target = await receiver({ events: ALL_EVENTS });
		expect(await target.lifecycle('checkExists')).toBe(false);
		expect(await target.lifecycle('create')).toBe(true);
		expect(await target.lifecycle('delete')).toBe(true);
		expect(bed.sandbox.requests().map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(['GET /1.0/accounts 200']);
	});

	it('warns in n8n\'s log at activation when the credential has no verification key, and only then', async () => {
		const logs = recordNodeLogs();
		try {
			const signed = await receiver({ events: ALL_EVENTS });
			expect(await signed.lifecycle('create')).toBe(true);
			expect(logs.lines.filter((line) => line.level === 'warn')).toEqual([]);
			const unsigned = await receiver({ events: ALL_EVENTS, options: { acceptUnsignedDeliveries: true } }, bed.connect({ webhookVerificationSecret: '' }));
			expect(await unsigned.lifecycle('create')).toBe(true);
			expect(logs.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
				expect.stringMatching(/^AWeber Webhook Trigger: the credential has no Webhook Verification Key and the trigger accepts unsigned deliveries \(insecure\)/),
			]);
		} finally {
			logs.restore();
		}
	});

	it('logs at activation the URL to paste in AWeber, naming the node, and the warning names it too', async () => {
		const logs = recordNodeLogs();
		try {
			const unsigned = await receiver({ events: ALL_EVENTS, options: { acceptUnsignedDeliveries: true } }, bed.connect({ webhookVerificationSecret: '' }));
			expect(await unsigned.lifecycle('create')).toBe(true);
			expect(logs.lines.filter((line) => line.level === 'info' || line.level === 'warn')).toEqual([
				{
					level: 'info',
					message: `AWeber Webhook Trigger: AWeber must send this workflow's webhooks to ${unsigned.url} (AWeber control panel, My Apps)`,
					metadata: { node: 'Trigger Under Test' },
				},
				{ level: 'warn', message: expect.stringMatching(/^AWeber Webhook Trigger: the credential has no Webhook Verification Key/), metadata: { node: 'Trigger Under Test' } },
			]);
		} finally {
			logs.restore();
		}
	});

	it('keeps the filtered list\'s uuid while active, and forgets it on deactivation or once the filter is off', async () => {
		const target = await receiver({
			events: ALL_EVENTS,
			filterByList: true,
			accountId: { __rl: true, mode: 'id', value: String(bed.sandbox.seed.accountId) },
			listId: { __rl: true, mode: 'id', value: String(bed.sandbox.seed.lists.newsletter) },
		});
		expect(await target.lifecycle('create')).toBe(true);
		expect(target.workflow.nodeStaticData.listUuid).toEqual(expect.any(String));
		expect(await target.lifecycle('delete')).toBe(true);
		expect(target.workflow.nodeStaticData).not.toHaveProperty('listUuid');

		expect(await target.lifecycle('create')).toBe(true);
		target.workflow.node.parameters.filterByList = false;
		expect(await target.lifecycle('create')).toBe(true);
		expect(target.workflow.nodeStaticData).not.toHaveProperty('listUuid');
	});

	it('refuses to activate without a verification key, saying why the key matters', async () => {
		const target = await receiver({ events: ALL_EVENTS }, bed.connect({ webhookVerificationSecret: '' }));
		await expect(target.lifecycle('checkExists')).rejects.toMatchObject({
			description: "Without the key, anyone who knows your app's client id could start this workflow.",
		});
	});

	it('refuses to activate when the credential no longer works', async () => {
		const target = await receiver({ events: ALL_EVENTS }, bed.connect({ token: { access_token: 'revoked', refresh_token: 'revoked', token_type: 'bearer', expires_in: 3600 } }));
		await expect(target.lifecycle('create')).rejects.toThrow();
	});
});
