// Workflows that run one node on many items: Manual Trigger, a Code node making the items, then the node.
import { chainConnections, MANUAL_TRIGGER_NAME, manualTriggerNode, type WorkflowJson, type WorkflowNode } from './workflows';

/** The items a Code node (JavaScript) returns: its name and its code, e.g. `return [{ json: { email } }]`. */
export interface CodeItems {
	name: string;
	jsCode: string;
}

/** n8n's Code node at the second place of a chain ([220, 0]), running `jsCode` once for all items. */
export function codeNode(items: CodeItems): WorkflowNode {
	return { name: items.name, type: 'n8n-nodes-base.code', typeVersion: 2, position: [220, 0], parameters: { jsCode: items.jsCode } };
}

/** Manual Trigger → the Code node making `items` → `node` (placed by its caller, usually at [440, 0]). */
export function itemsWorkflow(name: string, items: CodeItems, node: WorkflowNode): WorkflowJson {
	return {
		name,
		nodes: [manualTriggerNode(), codeNode(items), node],
		connections: chainConnections([MANUAL_TRIGGER_NAME, items.name, node.name]),
		settings: { executionOrder: 'v1' },
	};
}
