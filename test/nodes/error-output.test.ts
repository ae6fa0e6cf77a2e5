import type { IDataObject, INode, INodeExecutionData, INodeType } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, newsletterScope } from './email-nodes.helpers';

const bed = useTestbed();

// n8n's own No Operation node hands the input items on, so the AWeber node's items have a source to pair with.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { NoOp } = require('n8n-nodes-base/dist/nodes/NoOp/NoOp.node.js') as { NoOp: new () => INodeType };

beforeAll(() => bed.harness.nodeTypes.register('n8n-nodes-base.noOp', new NoOp()));

/**
 * Runs Input (No Operation) → the AWeber node with On Error "Continue (using error output)", as a user wires it,
 * and returns what reached each of its two outputs.
 */
async function runWithErrorOutput(type: string, parameters: IDataObject, items: IDataObject[]) {
	const input: INode = { id: 'input', name: 'Input', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} };
	const aweber: INode = {
		...bed.harness.toNode({ type, credentialId: bed.credentialId, parameters }, 'AWeber'),
		onError: 'continueErrorOutput',
	};
	const result = await bed.harness.run(
		{ nodes: [input, aweber], connections: { Input: { main: [[{ node: 'AWeber', type: 'main', index: 0 }]] } } },
		{ inputItems: items, startNode: 'Input' },
	);
	expect(result.error).toBeUndefined();
	const outputs = result.run.data.resultData.runData.AWeber[0].data?.main ?? [];
	const success: INodeExecutionData[] = outputs[0] ?? [];
	const errors: INodeExecutionData[] = outputs[1] ?? [];
	return { result, success, errors };
}

describe('On Error "Continue (using error output)": the error output items', () => {
	it('carry the failing input item\'s fields, the email and what went wrong, paired with that item', async () => {
		const { success, errors } = await runWithErrorOutput(
			'aWeberSubscriber',
			{ operation: 'create', ...newsletterScope(bed), email: '={{ $json.contact }}', additionalFields: { name: '={{ $json.name }}' } },
			[
				{ contact: 'first@example.com', name: 'First', crmId: 'c-1' },
				{ contact: 'ada.lovelace@example.com', name: 'Ada', crmId: 'c-2' },
				{ contact: 'last@example.com', name: 'Last', crmId: 'c-3' },
			],
		);
		expect(success.map((item) => item.json.email)).toEqual(['first@example.com', 'last@example.com']);
		expect(errors).toHaveLength(1);
		expect(errors[0].json).toEqual({
			contact: 'ada.lovelace@example.com',
			name: 'Ada',
			crmId: 'c-2',
			error: {
				message: expect.stringMatching(/already subscribed/),
				description: expect.stringMatching(/Create or Update/),
				httpCode: '400',
				email: 'ada.lovelace@example.com',
				itemIndex: 1,
			},
		});
		expect(errors[0].pairedItem).toEqual({ item: 1 });
	});

	it('carry the input item\'s fields when its input is refused before any request, and nothing is sent for it', async () => {
		const { success, errors } = await runWithErrorOutput(
			'aWeberSubscriber',
			{ operation: 'upsert', ...newsletterScope(bed), email: '={{ $json.contact }}' },
			[
				{ contact: 'grace.hopper@example.com', crmId: 'c-1' },
				{ contact: 'not-an-email', crmId: 'c-2' },
				{ contact: 'new.person@example.com', crmId: 'c-3' },
			],
		);
		expect(success.map((item) => item.json.email)).toEqual(['grace.hopper@example.com', 'new.person@example.com']);
		expect(errors.map((item) => item.json)).toEqual([
			{
				contact: 'not-an-email',
				crmId: 'c-2',
				error: expect.objectContaining({
					message: 'The "Email" field must be an email address, not "not-an-email"',
					email: 'not-an-email',
					itemIndex: 1,
				}),
			},
		]);
		expect(errors[0].pairedItem).toEqual({ item: 1 });
		expect(JSON.stringify(apiCalls(bed))).not.toContain('not-an-email');
	});

	it('name the address of a subscriber chosen by email, as the user gave it', async () => {
		const { success, errors } = await runWithErrorOutput(
			'aWeberSubscriber',
			{ operation: 'get', ...newsletterScope(bed), subscriberId: { __rl: true, mode: 'email', value: '={{ $json.contact }}' } },
			[{ contact: 'nobody.here@example.com', row: 3 }],
		);
		expect(success).toEqual([]);
		expect(errors.map((item) => item.json)).toEqual([
			{ contact: 'nobody.here@example.com', row: 3, error: expect.objectContaining({ email: 'nobody.here@example.com', itemIndex: 0 }) },
		]);
	});

	it('name the address a search filters by', async () => {
		const { success, errors } = await runWithErrorOutput(
			'aWeberSubscriber',
			{ operation: 'find', ...newsletterScope(bed), filters: { email: '={{ $json.contact }}', tags: '={{ $json.tags }}' }, returnAll: true },
			[{ contact: 'ada.lovelace@example.com', tags: { vip: true } }],
		);
		expect(success).toEqual([]);
		expect(errors.map((item) => item.json.error)).toEqual([
			expect.objectContaining({ email: 'ada.lovelace@example.com', message: expect.stringMatching(/^The "Tags" field must be a list of tags/) }),
		]);
	});

	it('carry the input item\'s fields for a refusal of a read too (no email involved)', async () => {
		const { success, errors } = await runWithErrorOutput(
			'aWeberBroadcast',
			{ operation: 'getStatistics', ...newsletterScope(bed), broadcastId: byId('={{ $json.broadcast }}'), returnAll: true },
			[{ broadcast: bed.sandbox.seed.broadcasts.draft, row: 7 }],
		);
		expect(success).toEqual([]);
		expect(errors.map((item) => item.json)).toEqual([
			{
				broadcast: bed.sandbox.seed.broadcasts.draft,
				row: 7,
				error: expect.objectContaining({
					message: expect.stringMatching(/has no statistics yet: AWeber has statistics only once a broadcast is sent/),
					httpCode: '404',
					itemIndex: 0,
				}),
			},
		]);
		expect(apiCalls(bed)).toHaveLength(1);
	});

	it('name the first check an item fails, when its input fails several', async () => {
		const { success, errors } = await runWithErrorOutput(
			'aWeberSubscriber',
			{ operation: 'create', accountId: byId(bed.sandbox.seed.accountId), listId: '={{ { __rl: true, mode: "id", value: $json.list } }}', email: '={{ $json.contact }}' },
			[{ contact: 'not-an-address', list: '12x' }],
		);
		expect(success).toEqual([]);
		expect(errors.map((item) => item.json.error)).toEqual([expect.objectContaining({ message: 'The "List" field must be a numeric AWeber ID, not "12x"' })]);
		expect(apiCalls(bed)).toEqual([]);
	});
});
