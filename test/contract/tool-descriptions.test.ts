// Every operation of every node offered as an AI tool (usableAsTool), as an agent reads it: the description n8n hands
// the model, got from n8n's own code (NodeHelpers.getToolDescriptionForNode) on the node's tool form, its
// parameters filled as n8n fills them. No hand list: a new operation is checked by being declared.
// The rules are docs/ai-agents.md#what-an-agent-reads.
import type { INode, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CHANGES_DATA, READ_ONLY } from '../../nodes/shared/toolDescription';
import { loadPackage } from '../harness/nodeTypes';

interface ToolOperation {
	title: string;
	plain: INodeTypeDescription;
	tool: INodeTypeDescription;
	resource?: string;
	operation: string;
	option: INodePropertyOptions;
}

/** The node's tool form as n8n builds it (its type name ends in "Tool", the `@tool` display option holds). */
function toolForm(description: INodeTypeDescription): INodeTypeDescription {
	return { ...description, name: `${description.name}Tool`, displayName: `${description.displayName} Tool` };
}

function toolOperations(): ToolOperation[] {
	const operations: ToolOperation[] = [];
	for (const nodeType of loadPackage().nodes.values()) {
		const plain = nodeType.description;
		if (!plain.usableAsTool) continue;
		for (const property of plain.properties.filter((candidate) => candidate.name === 'operation')) {
			const resource = property.displayOptions?.show?.resource?.[0] as string | undefined;
			for (const option of (property.options ?? []) as INodePropertyOptions[]) {
				const operation = String(option.value);
				const title = `${plain.displayName} ${resource ? `${resource} ` : ''}${option.name}`;
				operations.push({ title, plain, tool: toolForm(plain), resource, operation, option });
			}
		}
	}
	return operations;
}

/** What n8n hands the model as the tool's description for a node set to this operation (nothing edited by the user). */
function agentReads(description: INodeTypeDescription, resource: string | undefined, operation: string): string {
	const set = { ...(resource === undefined ? {} : { resource }), operation };
	const node: INode = { id: 'tool', name: 'Tool', type: description.name, typeVersion: 1, position: [0, 0], parameters: set };
	node.parameters = NodeHelpers.getNodeParameters(description.properties, set, true, false, node, description) ?? {};
	return NodeHelpers.getToolDescriptionForNode(node, { description } as INodeType);
}

const operations = toolOperations();

describe('Tool descriptions: what an AI agent reads about each AWeber operation', () => {
	it('covers the operations of every node (all action nodes are usable as tools)', () => {
		expect(new Set(operations.map((declared) => declared.plain.name)).size).toBe(10);
		expect(operations.length).toBeGreaterThan(50);
	});

	it.each(operations.map((declared) => [declared.title, declared] as const))('%s', (_title, declared) => {
		const text = agentReads(declared.tool, declared.resource, declared.operation);
		// Not n8n's automatic description ("<action> in <node>"), nor the node's one-line description.
		expect(text).not.toBe(`${declared.option.action as string} in ${declared.plain.defaults.name}`);
		expect(text).not.toBe(declared.plain.description);
		// What it does (a sentence of its own), what it needs, what it returns.
		expect(text).toMatch(/^[A-Z].{20,}\. Needs \S.*\. (Read-only|Changes data)/);
		expect(text).toMatch(/\. Returns \S.*\.$/);
		// Whether it changes data, and that agrees with the request it makes: only reads (GET) are read-only.
		const changes = text.includes(CHANGES_DATA);
		expect(changes).not.toBe(text.includes(READ_ONLY));
		const method = (declared.option.routing?.request?.method ?? 'GET').toUpperCase();
		expect({ method, changes }).toEqual({ method, changes: method !== 'GET' });
		// A deletion says it is final.
		if (method === 'DELETE') expect(text).toMatch(/permanently; this cannot be undone/);
	});

	it('each operation of a node reads differently (no copied text)', () => {
		const seen = new Map<string, string>();
		for (const declared of operations) {
			const text = agentReads(declared.tool, declared.resource, declared.operation);
			expect({ text, alsoFor: seen.get(text) }).toEqual({ text, alsoFor: undefined });
			seen.set(text, declared.title);
		}
	});

	it('a broadcast that would be emailed asks for the user\'s confirmation', () => {
		const schedule = operations.find((declared) => declared.plain.name.endsWith('Broadcast') && declared.operation === 'schedule')!;
		expect(agentReads(schedule.tool, undefined, 'schedule')).toMatch(/WILL BE EMAILED .* ask the user to confirm first/);
	});

	it('the plain node (not a tool) shows no tool description field', () => {
		for (const declared of operations) {
			const set = { ...(declared.resource === undefined ? {} : { resource: declared.resource }), operation: declared.operation };
			const parameters = NodeHelpers.getNodeParameters(declared.plain.properties, set, true, false, null, declared.plain);
			expect(parameters).not.toHaveProperty('toolDescription');
		}
	});
});
