// AWeber nodes as AI tools in a real n8n: the tool form of a node, linked to a root node (MCP Server Trigger, AI Agent).
import { CREDENTIAL_TYPE } from './credentials';
import { aweberType, type Json, type WorkflowNode } from './workflows';

/** A parameter the model fills: n8n's `$fromAI(key, description, type)` (docs/ai-agents.md). */
export const fromAI = (key: string, description: string, type: 'string' | 'number' | 'boolean' = 'string') =>
	`={{ $fromAI('${key}', '${description.replace(/'/g, "\\'")}', '${type}') }}`;

/** The tool form (`<node>Tool`) of an AWeber node, using one credential. */
export function aweberTool(name: string, node: string, parameters: Json, credentialId: string, position: [number, number]): WorkflowNode {
	return {
		name,
		type: `${aweberType(node)}Tool`,
		typeVersion: 1,
		position,
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'AWeber' } },
	};
}

/** Connections giving every tool to one root node (the MCP Server Trigger or the AI Agent). */
export function toolConnections(tools: WorkflowNode[], rootName: string): Json {
	return Object.fromEntries(tools.map((tool) => [tool.name, { ai_tool: [[{ node: rootName, type: 'ai_tool', index: 0 }]] }]));
}
