// Lints temporary copies of the package's files with the project's lint config (test/lint/eslint-api.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
const RUNNER = path.join(__dirname, 'eslint-api.mjs');
/** Linked into each temporary copy: imports resolve from node_modules, icon rules check the files in icons/. */
const LINKED_FOLDERS = ['node_modules', 'icons'];

export interface Problem {
	ruleId: string | null;
	severity: 1 | 2;
	message: string;
}

/** The checkout's text of a file, by its path relative to the package root. */
export const readPackageFile = (relativePath: string): string => readFileSync(path.join(ROOT, relativePath), 'utf8');

/**
 * Writes each set of `files` (path relative to the package root → text) into its own fresh temporary package folder,
 * with the checkout's node_modules and icons linked in, lints them all in one ESLint process (its start, loading the
 * plugins, is most of a lint's time) and returns, per set, each file's problems.
 */
export function lintCopiesEach(sets: Array<Record<string, string>>): Array<Record<string, Problem[]>> {
	const dirs: string[] = [];
	try {
		const args: string[] = [];
		for (const files of sets) {
			const dir = mkdtempSync(path.join(tmpdir(), 'aweber-lint-'));
			dirs.push(dir);
			for (const folder of LINKED_FOLDERS) symlinkSync(path.join(ROOT, folder), path.join(dir, folder), 'dir');
			for (const [relativePath, text] of Object.entries(files)) {
				mkdirSync(path.dirname(path.join(dir, relativePath)), { recursive: true });
				writeFileSync(path.join(dir, relativePath), text);
			}
			args.push(...(args.length > 0 ? ['--'] : []), dir, ...Object.keys(files));
		}
		const run = spawnSync(process.execPath, [RUNNER, ...args], { encoding: 'utf8' });
		if (run.status !== 0) throw new Error(`eslint-api.mjs exited ${run.status}: ${run.stderr}`);
		const perFolder = JSON.parse(run.stdout) as Array<Array<{ filePath: string; messages: Problem[] }>>;
		return sets.map((files, index) => {
			const byFile: Record<string, Problem[]> = {};
			for (const result of perFolder[index]) byFile[path.relative(dirs[index], result.filePath)] = result.messages;
			const missing = Object.keys(files).filter((file) => !(file in byFile));
			if (missing.length > 0) throw new Error(`ESLint gave no result for ${missing.join(', ')}`);
			return byFile;
		});
	} finally {
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	}
}

/** Lints temporary copies of `files` in one package folder; returns each file's problems. */
export const lintCopies = (files: Record<string, string>): Record<string, Problem[]> => lintCopiesEach([files])[0];

/** Lints a temporary copy of one file; returns its problems. */
export const lintCopy = (relativePath: string, text: string): Problem[] => lintCopies({ [relativePath]: text })[relativePath] ?? [];

export const ruleIds = (problems: Problem[]): Array<string | null> => problems.map((problem) => problem.ruleId);
