import type { INodeProperties } from 'n8n-workflow';

/**
 * What an AI agent reads about one operation used as a tool (docs/ai-agents.md#what-an-agent-reads). n8n's own
 * automatic description is only the action ("Delete a subscriber in AWeber Subscriber"); a node that declares a
 * `toolDescription` property gets that property instead, so each operation carries the four things a model needs.
 */
export interface ToolText {
	/** What the tool does, in the words a model needs (not the editor's labels). */
	does: string;
	/** What the call needs: the values the agent must supply. */
	needs: string;
	/** What it changes or sends in the AWeber account; leave out for a tool that only reads. */
	changes?: string;
	/** What comes back to the agent. */
	returns: string;
}

/** Starts the sentence of a tool that changes data; the contract test (test/contract/tool-descriptions.test.ts) reads it. */
export const CHANGES_DATA = 'Changes data in AWeber:';
/** The sentence of a tool that only reads. */
export const READ_ONLY = 'Read-only: changes nothing in AWeber.';

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** The text an agent reads: what it does, what it needs, whether and what it changes, what it returns. */
export function toolDescriptionText(text: ToolText): string {
	return [
		sentence(text.does),
		sentence(`Needs ${text.needs}`),
		text.changes === undefined ? READ_ONLY : sentence(`${CHANGES_DATA} ${text.changes}`),
		sentence(`Returns ${text.returns}`),
	].join(' ');
}

/**
 * One `toolDescription` field per operation, shown only on the node's tool form (n8n's `@tool` display option), its
 * default the operation's text. n8n then adds no "Set Automatically" description of its own, and the user can still
 * edit the text per tool.
 */
export function toolDescriptions(resource: string | undefined, byOperation: Record<string, ToolText>): INodeProperties[] {
	return Object.entries(byOperation).map(([operation, text]) => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: toolDescriptionText(text),
		displayOptions: {
			show: { '@tool': [true], ...(resource === undefined ? {} : { resource: [resource] }), operation: [operation] },
		},
		description: 'What the AI agent reads about this tool: what it does, needs, changes and returns',
	}));
}
