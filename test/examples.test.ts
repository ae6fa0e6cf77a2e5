// The example workflows (examples/*.json, imported by `npm start`): every sticky note names only what exists,
// where it says it is, and fits its sticky. Notes follow this convention, checked here:
//   *Node name*                        a node of the workflow (italics are for node names only)
//   **Field**                          a field of the workflow's AWeber node(s), at the top level of the panel
//   **Field** under *Collection*       a field inside that collection (e.g. **Schedule For** under *Additional Fields*)
//   ... in *Node name*                 (after either form) of that node, for its operation
//   **Field** in the credential        a field of the AWeber credential
//   the **Name** operation             an operation of the workflow's AWeber node(s)
// Bold is for these names only: list names, buttons and the like are plain text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ICredentialType, IDataObject, INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';

const packageJson = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
	n8n: { nodes: string[]; credentials: string[] };
};
const examplesDir = join(__dirname, '..', 'examples');
const PACKAGE_PREFIX = 'n8n-nodes-aweber.';

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: IDataObject;
}

/** The nodes and the credential as the package lists them, loaded from source (nodes/…/X.node.ts). */
function loadFromSource<T>(distFile: string): T[] {
	const source = join(__dirname, '..', distFile.replace(/^dist\//, '').replace(/\.js$/, ''));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exports = require(source) as Record<string, new () => T>;
	return Object.values(exports)
		.filter((value) => typeof value === 'function')
		.map((Type) => new Type());
}

const nodeTypes = new Map<string, INodeType>();
for (const file of packageJson.n8n.nodes) {
	for (const nodeType of loadFromSource<INodeType>(file)) nodeTypes.set(`${PACKAGE_PREFIX}${nodeType.description.name}`, nodeType);
	// n8n offers each node usable as a tool under `<name>Tool` too (docs/ai-agents.md); examples use both forms.
	for (const nodeType of loadFromSource<INodeType>(file).filter((candidate) => candidate.description.usableAsTool)) {
		const tool = { ...nodeType.description, name: `${nodeType.description.name}Tool` };
		nodeTypes.set(`${PACKAGE_PREFIX}${tool.name}`, { ...nodeType, description: tool });
	}
}
const credentialFields = packageJson.n8n.credentials
	.flatMap((file) => loadFromSource<ICredentialType>(file))
	.flatMap((credential) => credential.properties.map((property) => property.displayName));

function defaultOf(properties: INodeProperties[], name: string): unknown {
	return properties.find((property) => property.name === name)?.default;
}

/** Whether a top-level property shows for the node's parameters (show / hide on parameters and @version). */
function shown(property: INodeProperties, node: WorkflowNode, properties: INodeProperties[]): boolean {
	const matches = (key: string, allowed: unknown[]) => {
		if (key === '@version') return allowed.every((entry) => typeof entry !== 'number') || allowed.includes(node.typeVersion);
		const value = node.parameters[key] ?? defaultOf(properties, key);
		return allowed.includes(value);
	};
	const { show, hide } = property.displayOptions ?? {};
	for (const [key, allowed] of Object.entries(show ?? {})) if (!matches(key, allowed as unknown[])) return false;
	for (const [key, hidden] of Object.entries(hide ?? {})) if (matches(key, hidden as unknown[])) return false;
	return true;
}

/** Where a field is: top level, or the display name of the collection it is in. */
function fieldExists(node: WorkflowNode, field: string, collection: string | undefined): boolean {
	const nodeType = nodeTypes.get(node.type);
	if (!nodeType) return false;
	const properties = nodeType.description.properties;
	const visible = properties.filter((property) => shown(property, node, properties));
	if (collection === undefined) return visible.some((property) => property.displayName === field);
	return visible
		.filter((property) => property.displayName === collection && (property.type === 'collection' || property.type === 'fixedCollection'))
		.some((property) =>
			(property.options ?? []).some((option) => {
				if ('displayName' in option && option.displayName === field) return true;
				// fixedCollection: option groups with their own values
				const values = (option as { values?: INodeProperties[] }).values;
				return values?.some((value) => value.displayName === field) ?? false;
			}),
		);
}

function operationNames(node: WorkflowNode): string[] {
	const operation = nodeTypes.get(node.type)?.description.properties.find((property) => property.name === 'operation');
	return ((operation?.options ?? []) as INodePropertyOptions[]).map((option) => option.name);
}

interface Sticky {
	content: string;
	width: number;
	height: number;
}

interface Example {
	file: string;
	nodes: WorkflowNode[];
	stickies: Sticky[];
}

function loadExamples(): Example[] {
	return readdirSync(examplesDir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as { nodes: Array<WorkflowNode & { parameters: IDataObject }> };
			const stickies = workflow.nodes
				.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
				.map((node) => ({
					content: String(node.parameters.content ?? ''),
					// n8n's defaults for a sticky note without a size.
					width: Number(node.parameters.width ?? 240),
					height: Number(node.parameters.height ?? 160),
				}));
			return { file, nodes: workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote'), stickies };
		});
}

type Reference =
	| { kind: 'field'; text: string; field: string; collection?: string; node?: string }
	| { kind: 'credential'; text: string; field: string }
	| { kind: 'operation'; text: string; name: string }
	| { kind: 'node'; text: string; node: string };

/** What a note names, by the convention above. */
export function referencesIn(content: string): Reference[] {
	const references: Reference[] = [];
	let rest = content;
	const take = (pattern: RegExp, make: (match: RegExpExecArray) => Reference) => {
		rest = rest.replace(pattern, (...args: unknown[]) => {
			const match = args.slice(0, -2) as unknown as RegExpExecArray;
			references.push(make(match));
			return ' ';
		});
	};
	take(/[Tt]he \*\*([^*]+)\*\* operation/g, (match) => ({ kind: 'operation', text: match[0], name: match[1] }));
	take(/\*\*([^*]+)\*\* in the credential/g, (match) => ({ kind: 'credential', text: match[0], field: match[1] }));
	take(/\*\*([^*]+)\*\*(?: under \*([^*]+)\*)?(?: in \*([^*]+)\*)?/g, (match) => ({
		kind: 'field',
		text: match[0],
		field: match[1],
		collection: match[2],
		node: match[3],
	}));
	take(/\*([^*\s][^*]*)\*/g, (match) => ({ kind: 'node', text: match[0], node: match[1] }));
	return references;
}

/** Problems with a reference in a workflow: '' when it holds. */
function problemOf(reference: Reference, nodes: WorkflowNode[]): string {
	const aweberNodes = nodes.filter((node) => node.type.startsWith(PACKAGE_PREFIX));
	switch (reference.kind) {
		case 'node':
			return nodes.some((node) => node.name === reference.node) ? '' : `no node named "${reference.node}"`;
		case 'credential':
			return credentialFields.includes(reference.field) ? '' : `the credential has no field "${reference.field}"`;
		case 'operation':
			return aweberNodes.some((node) => operationNames(node).includes(reference.name)) ? '' : `no AWeber node here has the operation "${reference.name}"`;
		case 'field': {
			const candidates = reference.node === undefined ? aweberNodes : nodes.filter((node) => node.name === reference.node);
			if (candidates.length === 0) return reference.node === undefined ? 'no AWeber node in the workflow' : `no node named "${reference.node}"`;
			if (candidates.some((node) => fieldExists(node, reference.field, reference.collection))) return '';
			const where = reference.collection === undefined ? 'at the top level' : `under "${reference.collection}"`;
			return `"${reference.field}" is not ${where} of ${candidates.map((node) => `"${node.name}"`).join(' or ')}`;
		}
	}
}

// How n8n draws a sticky note (14 px text, 1.7 line height, a 20 px heading, 12 px padding and paragraph gap),
// measured against the webhook note that was cut off at 640 × 240.
const CHAR_WIDTH = 7.4;
const LINE_HEIGHT = 24;
const HEADING_HEIGHT = 34;
const PARAGRAPH_GAP = 12;
const PADDING = 12;

function visibleText(markdown: string): string {
	return markdown
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[*`]/g, '');
}

function wrappedLines(text: string, charsPerLine: number): number {
	let lines = 0;
	for (const line of text.split('\n')) {
		const words = visibleText(line).split(/\s+/).filter(Boolean);
		if (words.length === 0) continue;
		let count = 1;
		let used = 0;
		for (const word of words) {
			const needed = used === 0 ? word.length : word.length + 1;
			if (used > 0 && used + needed > charsPerLine) {
				count += 1;
				used = word.length;
			} else {
				used += needed;
			}
		}
		lines += count;
	}
	return lines;
}

/** The height a note's text needs at the sticky's width, in pixels (an estimate that errs on the tall side). */
export function neededHeight(content: string, width: number): number {
	const charsPerLine = Math.floor((width - 2 * PADDING) / CHAR_WIDTH);
	const blocks = content.split(/\n\s*\n/).filter((block) => block.trim() !== '');
	let height = 2 * PADDING + PARAGRAPH_GAP * Math.max(0, blocks.length - 1);
	for (const block of blocks) {
		const [first, ...others] = block.split('\n');
		if (/^#{1,6}\s/.test(first)) height += HEADING_HEIGHT + wrappedLines(others.join('\n'), charsPerLine) * LINE_HEIGHT;
		else height += wrappedLines(block, charsPerLine) * LINE_HEIGHT;
	}
	return height;
}

describe('example workflows', () => {
	const examples = loadExamples();

	it('are there, each with a note', () => {
		expect(examples.length).toBeGreaterThanOrEqual(5);
		for (const example of examples) expect(example.stickies.length).toBeGreaterThan(0);
	});

	describe.each(examples.map((example) => [example.file, example] as const))('%s', (_file, example) => {
		it('uses only nodes this package and n8n provide, at versions this package has', () => {
			for (const node of example.nodes.filter((candidate) => candidate.type.startsWith(PACKAGE_PREFIX))) {
				const nodeType = nodeTypes.get(node.type);
				expect(nodeType).toBeDefined();
				const versions = [nodeType?.description.version].flat();
				expect(versions).toContain(node.typeVersion);
			}
		});

		it('names in its notes only nodes, fields and operations that exist where the note says', () => {
			const problems = example.stickies.flatMap((sticky) =>
				referencesIn(sticky.content)
					.map((reference) => [reference.text, problemOf(reference, example.nodes)])
					.filter(([, problem]) => problem !== ''),
			);
			expect(problems).toEqual([]);
		});

		it('has notes whose text fits their sticky', () => {
			const tooSmall = example.stickies
				.map((sticky) => ({ note: sticky.content.slice(0, 40), width: sticky.width, height: sticky.height, needed: neededHeight(sticky.content, sticky.width) }))
				.filter((sticky) => sticky.needed > sticky.height);
			expect(tooSmall).toEqual([]);
		});
	});
});

describe('the upsert example\'s sample contacts', () => {
	it('its comment names exactly the contacts the sandbox already has on the list it writes to', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { seedState } = require('./sandbox/seed') as typeof import('./sandbox/seed');
		const workflow = JSON.parse(readFileSync(join(examplesDir, 'upsert-from-crm.json'), 'utf8')) as { nodes: WorkflowNode[] };
		const code = workflow.nodes.map((node) => node.parameters.jsCode).find((js): js is string => typeof js === 'string')!;
		const upsert = workflow.nodes.find((node) => node.parameters.operation === 'upsert')!;
		const listId = Number((upsert.parameters.listId as IDataObject).value);
		const { state } = seedState({ seedSize: 10, now: Date.now() });
		const onList = new Set(state.subscribersOf(listId).map((subscriber) => subscriber.email));
		const contacts = [...code.matchAll(/email: '([^']+)', firstName: '([^']+)', lastName: '([^']+)'/g)].map(([, email, first, last]) => ({
			email,
			name: `${first} ${last}`,
		}));
		expect(contacts.length).toBeGreaterThan(1);
		const sentence = /\/\/ (.*) already on the/.exec(code)?.[1] ?? '';
		for (const contact of contacts) {
			expect({ contact: contact.name, namedAsOnTheList: sentence.includes(contact.name) }).toEqual({
				contact: contact.name,
				namedAsOnTheList: onList.has(contact.email),
			});
		}
	});
});

describe('the checks themselves', () => {
	it('read the convention', () => {
		expect(referencesIn('Set **Schedule For** under *Additional Fields* in *Draft broadcast*; the **Cancel** operation; **Webhook Verification Key** in the credential; *Log entry*.')).toEqual([
			{ kind: 'operation', text: 'the **Cancel** operation', name: 'Cancel' },
			{ kind: 'credential', text: '**Webhook Verification Key** in the credential', field: 'Webhook Verification Key' },
			{ kind: 'field', text: '**Schedule For** under *Additional Fields* in *Draft broadcast*', field: 'Schedule For', collection: 'Additional Fields', node: 'Draft broadcast' },
			{ kind: 'node', text: '*Log entry*', node: 'Log entry' },
		]);
	});

	it('catch a field named in the wrong place and a note that does not fit', () => {
		const draft: WorkflowNode = { name: 'Draft broadcast', type: `${PACKAGE_PREFIX}aWeberBroadcast`, typeVersion: 1, parameters: { operation: 'create' } };
		const [misplaced] = referencesIn('**Schedule For** under *Options* in *Draft broadcast*');
		expect(problemOf(misplaced, [draft])).toBe('"Schedule For" is not under "Options" of "Draft broadcast"');
		const [right] = referencesIn('**Schedule For** under *Additional Fields* in *Draft broadcast*');
		expect(problemOf(right, [draft])).toBe('');
		const longNote = `## Title\n${'word '.repeat(200)}`;
		expect(neededHeight(longNote, 400)).toBeGreaterThan(400);
	});
});
