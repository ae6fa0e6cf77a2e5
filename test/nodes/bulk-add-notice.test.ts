// More than 1,000 adds in one run of Create or Create or Update looks like an import, which AWeber wants through its
// importer (docs/aweber-behaviour.md#bulk-adds). The node says so in n8n's own ways: the hint the editor shows in the
// output panel (its condition evaluated here as the editor does, with n8n-workflow's expression engine) and a line in
// n8n's log. Nothing else changes: every item is still added, at the usual pace.
import type { IDataObject, INode, INodeExecutionData, INodeTypeDescription, IRunExecutionData, NodeHint } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { PACKAGE_PREFIX } from '../harness';
import { useTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { apiCalls, newsletterScope } from './email-nodes.helpers';

const THRESHOLD = 1000;

type HintInput = { runExecutionData: IRunExecutionData | null; runIndex: number; connectionInputData: INodeExecutionData[] };

/**
 * How n8n's editor picks the description's hints to show after a run (its node helpers' getNodeHints, in n8n 1.x and
 * 2.x alike; not part of n8n-workflow's exports): each condition, an expression, evaluated with n8n-workflow's
 * expression engine over the node's input items (the parent's output); true (or "true") shows the hint.
 */
function editorNodeHints(workflow: Workflow, node: INode, description: INodeTypeDescription, input: HintInput): NodeHint[] {
	return (description.hints ?? []).filter((hint) => {
		if (!hint.displayCondition) return true;
		const display = workflow.expression.getParameterValue(hint.displayCondition, input.runExecutionData, input.runIndex, 0, node.name, input.connectionInputData, 'manual', {});
		return display === true || (typeof display === 'string' && display.trim() === 'true');
	});
}
const ADVICE = /This run adds more than 1,000 subscribers\. .*import an existing list with AWeber's importer \(Subscribers > Add Subscribers in AWeber, then import a file\), because AWeber treats bulk adds through the API as abuse/;

describe('AWeber Subscriber node: a run that adds more than 1,000 subscribers', () => {
	// AWeber's pace is not under test here: the account allows this run at once.
	const bed = useTestbed({
		rateLimit: { requestsPerWindow: 100_000, windowSeconds: 60, lockoutSeconds: 60 },
		credential: { rateLimitRequests: 100_000 },
	});

	const signups = (count: number) => Array.from({ length: count }, (_, index) => ({ email: `signup.${index}@example.com` }));

	const nodeSpec = (operation: string) => ({
		type: 'aWeberSubscriber',
		credentialId: bed.credentialId,
		parameters: { ...newsletterScope(bed), operation, output: 'summary', email: '={{ $json.email }}' },
	});

	/** The hints the editor's output panel shows after a run of the node over `items`. */
	function outputPanelHints(operation: string, items: IDataObject[], runExecutionData: IRunExecutionData | null): NodeHint[] {
		const node: INode = bed.harness.toNode(nodeSpec(operation), 'Node Under Test');
		const { description } = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}aWeberSubscriber`);
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
		const connectionInputData = items.map((json): INodeExecutionData => ({ json }));
		const hints = editorNodeHints(workflow, node, description, { runExecutionData, runIndex: 0, connectionInputData });
		return hints.filter((hint) => (hint.location ?? 'outputPane') === 'outputPane' && hint.whenToDisplay !== 'beforeExecution');
	}

	async function addAll(operation: 'create' | 'upsert', items: IDataObject[]) {
		const logs = recordNodeLogs();
		let result;
		try {
			result = await bed.harness.runNode(nodeSpec(operation), items);
		} finally {
			logs.restore();
		}
		const hints = outputPanelHints(operation, items, result.run.data);
		const warnings = logs.lines.filter((line) => line.level === 'warn' && /adds more than/.test(line.message));
		return { result, hints, warnings };
	}

	it('Create: the output panel shows the advice after the run, the log has it once, and every subscriber is still added', async () => {
		const { result, hints, warnings } = await addAll('create', signups(THRESHOLD + 1));
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(THRESHOLD + 1);
		expect(apiCalls(bed).filter((call) => call.method === 'POST')).toHaveLength(THRESHOLD + 1);

		expect(hints).toEqual([expect.objectContaining({ type: 'warning', location: 'outputPane', whenToDisplay: 'afterExecution', message: expect.stringMatching(ADVICE) })]);
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toMatch(ADVICE);
		expect(warnings[0].metadata).toMatchObject({ node: 'Node Under Test' });
	});

	it('Create or Update shows the same hint above the threshold; other operations never do', () => {
		expect(outputPanelHints('upsert', signups(THRESHOLD + 1), null).map((hint) => hint.message)).toEqual([expect.stringMatching(ADVICE)]);
		expect(outputPanelHints('upsert', signups(THRESHOLD), null)).toEqual([]);
		expect(outputPanelHints('getAll', signups(THRESHOLD + 1), null)).toEqual([]);
	});

	it('1,000 adds in one run: no hint and no log line', async () => {
		const { result, hints, warnings } = await addAll('create', signups(THRESHOLD));
		expect(result.items).toHaveLength(THRESHOLD);
		expect(hints).toEqual([]);
		expect(warnings).toEqual([]);
	});
});
