// Benchmark 3: AWeber calls one item costs, per operation (targets: at most 2 each; 1 with "Output: Request Summary").
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { PACKAGE_PREFIX, type N8nHarness } from '../test/harness';
import { log } from './lib';
import type { RemoteSandbox } from './remoteSandbox';

export interface OperationCalls {
	node: string;
	operation: string;
	/** AWeber calls of one item; null when the node is not built yet. */
	calls: number | null;
	target: number;
	sequence?: string[];
	error?: string;
}

const locator = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

function nodeBuilt(harness: N8nHarness, type: string): boolean {
	try {
		harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}${type}`);
		return true;
	} catch {
		return false;
	}
}

async function subscriberEmail(sandbox: RemoteSandbox, listId: number, subscriberId: number): Promise<string> {
	const token = await sandbox.issueToken();
	const answer = await request(`${sandbox.apiBaseUrl}/1.0/accounts/${sandbox.seed.accountId}/lists/${listId}/subscribers/${subscriberId}`, {
		headers: { authorization: `Bearer ${token.access_token}` },
	});
	return String(((await answer.body.json()) as IDataObject).email);
}

export async function benchCallsPerOperation(sandbox: RemoteSandbox, harness: N8nHarness): Promise<Record<string, OperationCalls>> {
	await sandbox.reset();
	const { seed } = sandbox;
	const newsletter = { accountId: locator(seed.accountId), listId: locator(seed.lists.newsletter) };
	const existingEmail = await subscriberEmail(sandbox, seed.lists.newsletter, seed.subscribers.subscribed);
	const inAWeek = new Date((await sandbox.now()) + 7 * 24 * 3600 * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
	const purchase = {
		operation: 'trackPurchase',
		...newsletter,
		email: 'calls.purchase@example.com',
		ipAddress: '204.194.222.28',
		productName: 'Trail Jacket',
		value: 49.5,
		currency: 'USD',
		vendor: 'Sandbox Store',
		url: 'https://sandbox-outfitters.example/checkout',
		eventNote: 'Order 1001',
	};
	const cases: Record<string, { node: string; parameters: IDataObject; target?: number }> = {
		addSubscriber: { node: 'aWeberSubscriber', parameters: { operation: 'create', ...newsletter, email: 'calls.per.operation@example.com' } },
		addSubscriberFast: {
			node: 'aWeberSubscriber',
			parameters: { operation: 'create', ...newsletter, email: 'calls.fast@example.com', output: 'summary' },
			target: 1,
		},
		upsertSubscriber: {
			node: 'aWeberSubscriber',
			parameters: { operation: 'upsert', ...newsletter, email: existingEmail, additionalFields: { name: 'Upserted' } },
		},
		upsertSubscriberFast: {
			node: 'aWeberSubscriber',
			parameters: { operation: 'upsert', ...newsletter, email: existingEmail, additionalFields: { name: 'Upserted' }, output: 'summary' },
			target: 1,
		},
		trackPurchase: { node: 'aWeberSubscriber', parameters: purchase },
		trackPurchaseFast: { node: 'aWeberSubscriber', parameters: { ...purchase, email: 'calls.purchase.fast@example.com', output: 'summary' }, target: 1 },
		updateOneCustomField: {
			node: 'aWeberSubscriber',
			parameters: {
				operation: 'update',
				...newsletter,
				subscriberId: locator(seed.subscribers.subscribed),
				updateFields: { customFields: { field: [{ name: 'Plan', value: 'team' }] } },
			},
		},
		scheduleBroadcast: {
			node: 'aWeberBroadcast',
			parameters: { operation: 'schedule', ...newsletter, broadcastId: locator(seed.broadcasts.draft), scheduledFor: inAWeek },
		},
	};
	const results: Record<string, OperationCalls> = {};
	for (const [name, { node, parameters, target = 2 }] of Object.entries(cases)) {
		const base = { node, operation: String(parameters.operation), target };
		if (!nodeBuilt(harness, node)) {
			results[name] = { ...base, calls: null, error: `${node} is not built` };
			continue;
		}
		const credentialId = harness.addCredential(await sandbox.credentialData());
		await sandbox.clearRequests();
		const result = await harness.runNode({ type: node, credentialId, parameters });
		const calls = await sandbox.apiCalls();
		results[name] = {
			...base,
			calls: calls.length,
			sequence: calls.map((entry) => `${entry.method} ${entry.path.replace(/^\/1\.0\/accounts\/\d+/, '')} ${entry.status}`),
			...(result.status === 'success' ? {} : { error: result.error?.message }),
		};
		log(`calls per operation, ${name}: ${calls.length} (${results[name].sequence?.join(', ')})`);
	}
	return results;
}
