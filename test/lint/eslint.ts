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
 * Writes `files` (path relative to the package root → text) into a fresh temporary package folder, with the checkout's
 * node_modules and icons linked in, lints them there and returns each file's problems.
 */
export function lintCopies(files: Record<string, string>): Record<string, Problem[]> {
	const dir = mkdtempSync(path.join(tmpdir(), 'aweber-lint-'));
	try {
		for (const folder of LINKED_FOLDERS) symlinkSync(path.join(ROOT, folder), path.join(dir, folder), 'dir');
		for (const [relativePath, text] of Object.entries(files)) {
			mkdirSync(path.dirname(path.join(dir, relativePath)), { recursive: true });
			writeFileSync(path.join(dir, relativePath), text);
		}
		const run = spawnSync(process.execPath, [RUNNER, dir, ...Object.keys(files)], { encoding: 'utf8' });
		if (run.status !== 0) throw new Error(`eslint-api.mjs exited ${run.status}: ${run.stderr}`);
		const results = JSON.parse(run.stdout) as Array<{ filePath: string; messages: Problem[] }>;
		const byFile: Record<string, Problem[]> = {};
		for (const result of results) byFile[path.relative(dir, result.filePath)] = result.messages;
		const missing = Object.keys(files).filter((file) => !(file in byFile));
		if (missing.length > 0) throw new Error(`ESLint gave no result for ${missing.join(', ')}`);
		return byFile;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Lints a temporary copy of one file; returns its problems. */
export const lintCopy = (relativePath: string, text: string): Problem[] => lintCopies({ [relativePath]: text })[relativePath] ?? [];

export const ruleIds = (problems: Problem[]): Array<string | null> => problems.map((problem) => problem.ruleId);
