// Field files are descriptions, nothing else (docs/architecture.md#fields-and-hooks): what a node shows is built from
// files that never reach the network layer, and each operation file says once, at its end, for which operation
// its fields are shown. The request-time functions an operation names (preSend, postReceive, its routed entry)
// come from one module of hooks per resource, `resources/<resource>/hooks.ts`, which only index.ts and the
// operation files import.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { loadBuiltDescriptions } from '../../scripts/docs/operations';

const ROOT = path.resolve(__dirname, '../..');
const NODES = path.join(ROOT, 'nodes');
/** The modules that send, pace and route requests. */
const NETWORK_LAYER = ['shared/transport.ts', 'shared/routing.ts', 'shared/rateLimiter.ts'].map((file) => path.join(NODES, file));

const relative = (file: string) => path.relative(ROOT, file);

/** The files a source file imports (type-only imports too), resolved; packages are left out. */
function importsOf(file: string): string[] {
	const source = readFileSync(file, 'utf8');
	const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/g)].map((match) => match[1]);
	return specifiers
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => {
			const base = path.resolve(path.dirname(file), specifier);
			const candidates = [`${base}.ts`, path.join(base, 'index.ts'), base];
			const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
			if (found === undefined) throw new Error(`${relative(file)} imports ${specifier}, which is not a file`);
			return found;
		});
}

const isHooks = (file: string) => path.basename(file) === 'hooks.ts';

/** Every resource folder of every node (nodes/<Node>/resources/<resource>/ with an index.ts). */
function resourceFolders(): string[] {
	return readdirSync(NODES)
		.map((node) => path.join(NODES, node, 'resources'))
		.filter((resources) => existsSync(resources))
		.flatMap((resources) => readdirSync(resources).map((name) => path.join(resources, name)))
		.filter((folder) => existsSync(path.join(folder, 'index.ts')));
}

/** The operation files: resources/<resource>/<operation value>.ts, for every operation the built nodes offer. */
function operationFiles(): string[] {
	const files: string[] = [];
	for (const { folder, description } of loadBuiltDescriptions(ROOT)) {
		const values = new Set(
			description.properties
				.filter((property) => property.name === 'operation')
				.flatMap((property) => (property.options ?? []).map((option) => String((option as { value: unknown }).value))),
		);
		const resources = path.join(NODES, folder, 'resources');
		if (!existsSync(resources)) continue;
		for (const resource of readdirSync(resources)) {
			for (const value of values) {
				const file = path.join(resources, resource, `${value}.ts`);
				if (existsSync(file)) files.push(file);
			}
		}
	}
	return files.sort();
}

/**
 * The ways from a description file to the network layer: every import chain from `start` that reaches transport.ts,
 * routing.ts or rateLimiter.ts without passing through a resource's hooks.ts (the one module allowed to).
 */
function pathsToNetwork(start: string): string[] {
	const found: string[] = [];
	const seen = new Set<string>();
	const walk = (file: string, chain: string[]) => {
		if (seen.has(file)) return;
		seen.add(file);
		for (const imported of importsOf(file)) {
			if (isHooks(imported)) continue;
			const next = [...chain, relative(imported)];
			if (NETWORK_LAYER.includes(imported)) found.push(next.join(' -> '));
			else walk(imported, next);
		}
	};
	walk(start, [relative(start)]);
	return found;
}

/** Whether a file's last top-level statement is `export const … = updateDisplayOptions(`, its only call, and the operation is named only there. */
function endsWithOneUpdateDisplayOptions(source: string): string | undefined {
	const calls = source.match(/\bupdateDisplayOptions\(/g)?.length ?? 0;
	if (calls !== 1) return `calls updateDisplayOptions ${calls} times`;
	const topLevel = source
		.trimEnd()
		.split('\n')
		.filter((line) => /^\S/.test(line) && !/^[\])}]/.test(line) && !/^(?:\/\/|\/\*|\*)/.test(line));
	const last = topLevel[topLevel.length - 1] ?? '';
	if (!/^export const \w+(?::[^=]+)? = updateDisplayOptions\(/.test(last)) return `ends with "${last}"`;
	const operationNamed = source.match(/\boperation:\s*\[/g)?.length ?? 0;
	if (operationNamed !== 1) return `names its operation in displayOptions ${operationNamed} times`;
	return undefined;
}

describe('field files', () => {
	const folders = resourceFolders();
	const operations = operationFiles();

	it('are found: every node with resources, and operation files named for their operations', () => {
		expect(folders.length).toBeGreaterThanOrEqual(10);
		expect(operations.length).toBeGreaterThanOrEqual(40);
	});

	it("never import the network layer, but through their resource's hooks.ts", () => {
		const roots = [...folders.map((folder) => path.join(folder, 'index.ts')), ...operations];
		expect(roots.flatMap(pathsToNetwork)).toEqual([]);
	});

	it("import a resource's hooks.ts only from that resource's index.ts and operation files", () => {
		const allowed = new Set([...folders.map((folder) => path.join(folder, 'index.ts')), ...operations]);
		const wrong: string[] = [];
		const files = readdirSync(NODES, { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.ts'))
			.map((file) => path.join(NODES, file));
		for (const file of files) {
			for (const imported of importsOf(file).filter(isHooks)) {
				if (!allowed.has(file) || path.dirname(imported) !== path.dirname(file)) wrong.push(`${relative(file)} -> ${relative(imported)}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	it('each operation file ends with one updateDisplayOptions, where alone it names its operation', () => {
		const wrong = operations
			.map((file) => [relative(file), endsWithOneUpdateDisplayOptions(readFileSync(file, 'utf8'))])
			.filter(([, problem]) => problem !== undefined);
		expect(wrong).toEqual([]);
	});
});
