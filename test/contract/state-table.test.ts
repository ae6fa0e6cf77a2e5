// docs/architecture.md's "State kept in the process" lists every piece of state the package keeps between calls,
// with its key and lifetime. A maintainer trusts that table to know what a process remembers (and what queue mode
// shares or not): this suite fails when the code keeps state the table does not list, or the table lists state the
// code no longer has.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const projectRoot = path.resolve(__dirname, '../..');
const architecture = readFileSync(path.join(projectRoot, 'docs/architecture.md'), 'utf8');

function sourceFiles(dir: string): string[] {
	return readdirSync(path.join(projectRoot, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return sourceFiles(relative);
		return entry.name.endsWith('.ts') ? [relative] : [];
	});
}

/**
 * State a module keeps: a module-level `let`, or a module-level collection made empty to be filled as the process
 * runs. A collection made with its contents (`new Set([0x20, 0x09])`) is a constant table, not state.
 */
function moduleStateInCode(): string[] {
	const found: string[] = [];
	for (const file of sourceFiles('nodes')) {
		const source = readFileSync(path.join(projectRoot, file), 'utf8');
		for (const match of source.matchAll(/^(?:export )?let (\w+)/gm)) found.push(`${match[1]} in ${file}`);
		for (const match of source.matchAll(/^(?:export )?const (\w+)(?::[^=]+)? = new (?:WeakMap|Map|WeakSet|Set)(?:<.*>)?\(\)/gm)) {
			found.push(`${match[1]} in ${file}`);
		}
	}
	return found.sort();
}

/** The rows of the markdown table that follows `heading` (first two cells, without backquotes). */
function tableAfter(heading: string): string[][] {
	const start = architecture.indexOf(heading);
	expect(start).toBeGreaterThanOrEqual(0);
	const lines = architecture.slice(start + heading.length).split('\n');
	const first = lines.findIndex((line) => line.startsWith('|'));
	const rows: string[][] = [];
	for (const line of lines.slice(first + 2)) {
		if (!line.startsWith('|')) break;
		rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim().replace(/`/g, '')));
	}
	return rows;
}

/** The fields of runState.ts's `RunState`, the one store's per-run record. */
function runStateFieldsInCode(): string[] {
	const source = readFileSync(path.join(projectRoot, 'nodes/shared/runState.ts'), 'utf8');
	const body = /export interface RunState \{([\s\S]*?)\n\}/.exec(source);
	expect(body).not.toBeNull();
	return [...body![1].matchAll(/^\t(\w+)\??:/gm)].map((match) => match[1]).sort();
}

describe("docs/architecture.md's state table", () => {
	it('lists every piece of state a module of nodes/ keeps, where it is kept, and nothing else', () => {
		const listed = tableAfter('## State kept in the process').map(([store, where]) => `${store} in ${where}`);
		expect(listed.sort()).toEqual(moduleStateInCode());
	});

	it("lists every field of a node run's state (RunState), and nothing else", () => {
		const listed = tableAfter("What a node run keeps (`RunState` in `runState.ts`").map(([field]) => field);
		expect(listed.sort()).toEqual(runStateFieldsInCode());
	});

	it('gives every piece of state its key and lifetime', () => {
		for (const [store, , key, , lifetime] of tableAfter('## State kept in the process')) {
			expect({ store, key: key !== '', lifetime: lifetime !== '' }).toEqual({ store, key: true, lifetime: true });
		}
	});
});
