// The README's operation tables and docs/operations/ written from the BUILT node descriptions (`npx gulp docs`),
// and the check that they are current (`npx gulp docs:check`, run by .ci/run). What a user sees in n8n is the
// source: operation names and descriptions, AWeber's method and path from `routing`, the fields and their
// descriptions. Hand-written notes per operation live beside the operations, in
// nodes/<Node>/resources/<resource>/notes.md (see renderNotes below), never in the generated files.
// Deterministic: the same built nodes and notes give the same bytes, so the lead re-runs it after merges.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { cell, fieldDescription, sentence } from './markdown';
import { newSentences, withoutRepeats } from './repeats';
import { renderTriggerPages } from './triggerEvents';

export const ROOT = path.resolve(__dirname, '../..');

const GENERATED_BY = 'npx gulp docs';

export interface OperationDoc {
	resource?: { value: string; name: string };
	value: string;
	name: string;
	description: string;
	method: string;
	path: string;
	/** Constant query or body fields of the request (`ws.op=find`, `update_existing=true`). */
	constants: string[];
	fields: FieldDoc[];
	note?: string;
}

export interface FieldDoc {
	name: string;
	type: string;
	required: boolean;
	description: string;
}

export interface NodeDoc {
	/** The node's folder under nodes/ (AWeberSubscriber). */
	folder: string;
	displayName: string;
	/** docs/operations/<slug>.md */
	slug: string;
	description: string;
	hasResources: boolean;
	operations: OperationDoc[];
}

/** The built descriptions of the nodes that have operations, in package.json's order (triggers have none). */
export function loadBuiltDescriptions(root = ROOT): Array<{ folder: string; description: INodeTypeDescription }> {
	const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	const loaded: Array<{ folder: string; description: INodeTypeDescription }> = [];
	for (const file of manifest.n8n.nodes) {
		const built = path.join(root, file);
		if (!existsSync(built)) throw new Error(`${file} is not built: run \`npm run build\` first`);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const exported = Object.values(require(built) as Record<string, new () => { description: INodeTypeDescription }>);
		for (const NodeClass of exported) {
			if (typeof NodeClass !== 'function') continue;
			const { description } = new NodeClass();
			if (description.properties.some((property) => property.name === 'operation')) {
				loaded.push({ folder: path.basename(path.dirname(file)), description });
			}
		}
	}
	return loaded;
}

/** A routed URL as a path: an expression URL (`={{ "/a" + (… ? "" : "/{id}") }}`) shows its path parts joined (the path for an ID). */
function pathOf(url: string | undefined): string {
	if (url === undefined) return '';
	if (!url.startsWith('=')) return url;
	return [...url.matchAll(/"(\/[^"]*)"/g)].map((match) => match[1]).join('');
}

function constantsOf(request: Record<string, unknown> | undefined): string[] {
	const constants: string[] = [];
	for (const part of ['qs', 'body'] as const) {
		const values = request?.[part];
		if (typeof values !== 'object' || values === null) continue;
		for (const [key, value] of Object.entries(values)) constants.push(`${key}=${String(value)}`);
	}
	return constants;
}

function shownFor(property: INodeProperties, resource: string | undefined, operation: string): boolean {
	const show = property.displayOptions?.show;
	if (!show?.operation || !(show.operation as unknown[]).includes(operation)) return false;
	if (resource !== undefined && show.resource && !(show.resource as unknown[]).includes(resource)) return false;
	return true;
}

function fieldsOf(properties: INodeProperties[], resource: string | undefined, operation: string): FieldDoc[] {
	const fields: FieldDoc[] = [];
	for (const property of properties) {
		if (property.type === 'hidden' || property.type === 'notice' || !shownFor(property, resource, operation)) continue;
		fields.push({ name: property.displayName, type: property.type, required: property.required === true, description: fieldDescription(property) });
		if (property.type !== 'collection' || !Array.isArray(property.options)) continue;
		for (const option of property.options as INodeProperties[]) {
			if (!('type' in option)) continue;
			fields.push({ name: `${property.displayName} › ${option.displayName}`, type: option.type, required: false, description: fieldDescription(option) });
		}
	}
	return fields;
}

/**
 * `docs/operations/<slug>.md` of the node `aWeberCustomField`: custom-field. From the node's name, which never changes,
 * not its display name (the Subscriber node shows as "AWeber" in the node panel).
 */
function slugOf(nodeName: string): string {
	return nodeName.replace(/^aWeber/, '').replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/**
 * Hand-written notes of one resource folder: nodes/<Node>/resources/<folder>/notes.md, one `## <operation value>`
 * section per operation (the text up to the next section), e.g. `## create`, or `## <resource>.<operation>` for a
 * folder that holds several resources. Lines before the first section are for the editor and are not published.
 */
export function readNotes(file: string): Map<string, string> {
	const notes = new Map<string, string>();
	if (!existsSync(file)) return notes;
	let current: string | undefined;
	const lines: string[] = [];
	const flush = () => {
		if (current !== undefined) notes.set(current, lines.join(' ').replace(/\s+/g, ' ').trim());
		lines.length = 0;
	};
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		const heading = /^## +(\S+)\s*$/.exec(line);
		if (heading) {
			flush();
			current = heading[1];
		} else if (current !== undefined) {
			lines.push(line);
		}
	}
	flush();
	return notes;
}

/**
 * Every notes.md under nodes/<Node>/resources/, keyed as a section would name an operation: `<resource>.<operation>`
 * always, and a bare `<operation>` for sections of the resource's own folder (or of a node without resources).
 */
function notesOfNode(root: string, folder: string): Map<string, string> {
	const notes = new Map<string, string>();
	const resources = path.join(root, 'nodes', folder, 'resources');
	if (!existsSync(resources)) return notes;
	for (const resourceFolder of readdirSync(resources).sort()) {
		if (!statSync(path.join(resources, resourceFolder)).isDirectory()) continue;
		for (const [key, text] of readNotes(path.join(resources, resourceFolder, 'notes.md'))) {
			notes.set(key.includes('.') ? key : `${resourceFolder}.${key}`, text);
			if (!key.includes('.')) notes.set(`*.${key}`, text);
		}
	}
	return notes;
}

export function describeNode(root: string, folder: string, description: INodeTypeDescription): NodeDoc {
	const resourceProperty = description.properties.find((property) => property.name === 'resource');
	const resources = (resourceProperty?.options as INodePropertyOptions[] | undefined) ?? [];
	const operations: OperationDoc[] = [];
	const notes = notesOfNode(root, folder);
	for (const operationProperty of description.properties.filter((property) => property.name === 'operation')) {
		const resourceValue = (operationProperty.displayOptions?.show?.resource as string[] | undefined)?.[0];
		const resource = resources.find((option) => option.value === resourceValue);
		for (const option of (operationProperty.options as INodePropertyOptions[]) ?? []) {
			const value = String(option.value);
			const request = option.routing?.request as Record<string, unknown> | undefined;
			operations.push({
				resource: resource ? { value: String(resource.value), name: resource.name } : undefined,
				value,
				name: option.name,
				description: option.description ?? '',
				method: String(request?.method ?? 'GET'),
				path: pathOf(request?.url as string | undefined),
				constants: constantsOf(request),
				fields: fieldsOf(description.properties, resourceValue, value),
				note: resourceValue === undefined ? notes.get(`*.${value}`) : notes.get(`${resourceValue}.${value}`),
			});
		}
	}
	return {
		folder,
		displayName: description.displayName,
		slug: slugOf(description.name),
		description: description.description,
		hasResources: resources.length > 0,
		operations,
	};
}

export function describeNodes(root = ROOT, descriptions = loadBuiltDescriptions(root)): NodeDoc[] {
	return descriptions.map(({ folder, description }) => describeNode(root, folder, description));
}

function callOf(operation: OperationDoc): string {
	const call = `\`${operation.method} ${operation.path}\``;
	return operation.constants.length > 0 ? `${call} with ${operation.constants.map((constant) => `\`${constant}\``).join(', ')}` : call;
}

/** The operation table of one node, as the README and docs/operations show it. */
export function renderTable(node: NodeDoc): string {
	const head = node.hasResources ? '| Resource | Operation | AWeber call | Notes |\n|---|---|---|---|' : '| Operation | AWeber call | Notes |\n|---|---|---|';
	const rows = node.operations.map((operation) => {
		const notes = cell(withoutRepeats(sentence(operation.description), operation.note ?? ''));
		const columns = [operation.name, callOf(operation), notes];
		if (node.hasResources) columns.unshift(operation.resource?.name ?? '');
		return `| ${columns.map(cell).join(' | ')} |`;
	});
	return [head, ...rows].join('\n');
}

const startMarker = (node: NodeDoc) => `<!-- operations of ${node.folder}: generated by \`${GENERATED_BY}\` from the built node; edit the node or its notes.md -->`;
const END_MARKER = '<!-- end of generated operations -->';

/** The README with each node's table replaced between its markers; a node without markers is an error. */
export function renderReadme(readme: string, nodes: NodeDoc[]): string {
	let text = readme;
	for (const node of nodes) {
		const start = text.indexOf(startMarker(node));
		const end = start < 0 ? -1 : text.indexOf(END_MARKER, start);
		if (start < 0 || end < 0) throw new Error(`README.md lacks the markers of ${node.folder}'s operation table:\n${startMarker(node)}\n…\n${END_MARKER}`);
		text = `${text.slice(0, start)}${startMarker(node)}\n${renderTable(node)}\n${text.slice(end)}`;
	}
	return text;
}

/** docs/operations/<slug>.md: the table, then each operation's call and fields. */
export function renderOperationsPage(node: NodeDoc): string {
	const lines = [
		`<!-- Generated by \`${GENERATED_BY}\` from the built ${node.folder} node and its notes.md files: edit those, not this file. -->`,
		`# ${node.displayName}`,
		'',
		sentence(node.description),
		'',
		renderTable(node),
	];
	for (const operation of node.operations) {
		const title = node.hasResources && operation.resource ? `${operation.resource.name}: ${operation.name}` : operation.name;
		lines.push('', `## ${title}`, '', sentence(operation.description), '', `AWeber call: ${callOf(operation)}`);
		const note = newSentences(operation.description, operation.note ?? '');
		if (note) lines.push('', note);
		if (operation.fields.length > 0) {
			lines.push('', '| Field | Type | Required | Description |', '|---|---|---|---|');
			for (const field of operation.fields) {
				lines.push(`| ${cell(field.name)} | ${field.type} | ${field.required ? 'yes' : ''} | ${cell(field.description)} |`);
			}
		}
	}
	return `${lines.join('\n')}\n`;
}

/** Every generated file (relative path → content) from the built nodes and the current README. */
export function renderDocs(root = ROOT, nodes = describeNodes(root)): Map<string, string> {
	const files = new Map<string, string>();
	files.set('README.md', renderReadme(readFileSync(path.join(root, 'README.md'), 'utf8'), nodes));
	for (const node of nodes) files.set(path.posix.join('docs/operations', `${node.slug}.md`), renderOperationsPage(node));
	for (const [file, content] of renderTriggerPages(root)) files.set(file, content);
	return files;
}

export function writeDocs(root = ROOT, nodes?: NodeDoc[]): string[] {
	const written: string[] = [];
	for (const [file, content] of renderDocs(root, nodes)) {
		const target = path.join(root, file);
		if (existsSync(target) && readFileSync(target, 'utf8') === content) continue;
		writeFileSync(target, content);
		written.push(file);
	}
	return written;
}

/** The generated files that differ from what the built nodes give (empty when the docs are current). */
export function staleDocs(root = ROOT, nodes?: NodeDoc[]): string[] {
	const stale: string[] = [];
	for (const [file, content] of renderDocs(root, nodes)) {
		const target = path.join(root, file);
		if (!existsSync(target) || readFileSync(target, 'utf8') !== content) stale.push(file);
	}
	return stale;
}
