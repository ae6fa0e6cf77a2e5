// What the published package may hold: what n8n loads from it, and the files npm always packs.
// `n8n-node build` copies every .png/.svg of the checkout into dist/ (docs/screenshots included), so the
// build prunes dist/ to DIST_ENTRIES, and the scan checks the `npm pack` file list against the same list.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/** dist/ entries n8n loads: node and credential classes, their icons, and package.json (read by nodes/shared/constants). */
export const DIST_ENTRIES = ['nodes', 'credentials', 'icons', 'package.json'] as const;

/** Files at the package root besides dist/: npm packs package.json, README and LICENSE whatever `files` says. */
export const ROOT_FILES = ['package.json', 'README.md', 'LICENSE'] as const;

/** Top-level dist/ entries that n8n does not load. */
export function unexpectedDistEntries(distDir: string): string[] {
	return readdirSync(distDir)
		.filter((entry) => !(DIST_ENTRIES as readonly string[]).includes(entry))
		.sort();
}

/** Removes what n8n does not load from dist/; returns the removed entries. */
export function pruneDist(distDir: string): string[] {
	const removed = unexpectedDistEntries(distDir);
	for (const entry of removed) rmSync(path.join(distDir, entry), { recursive: true, force: true });
	return removed;
}

export interface PackageManifest {
	main?: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

/** Problems with a tarball's file list (paths relative to the package root, as `npm pack --json` lists them). */
export function tarballProblems(files: string[], manifest: PackageManifest): string[] {
	const problems: string[] = [];
	const listed = new Set(files);
	for (const file of files) {
		const [top, second] = file.split('/');
		const allowed =
			file.includes('/') ? top === 'dist' && second !== undefined && (DIST_ENTRIES as readonly string[]).includes(second) : (ROOT_FILES as readonly string[]).includes(file);
		if (!allowed) problems.push(`${file}: not something n8n loads`);
	}
	for (const file of [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])]) {
		if (!listed.has(path.posix.normalize(file))) problems.push(`${file}: listed in package.json "n8n" but not in the package`);
	}
	if (manifest.main !== undefined && !listed.has(path.posix.normalize(manifest.main))) {
		problems.push(`${manifest.main}: package.json "main" names a file the package lacks`);
	}
	return problems;
}

if (require.main === module) {
	if (process.argv[2] !== '--prune') {
		console.error('usage: tsx scripts/scan/package-contents.ts --prune   (removes from dist/ what n8n does not load)');
		process.exit(2);
	}
	const removed = pruneDist(path.resolve(__dirname, '../../dist'));
	if (removed.length > 0) console.log(`dist/: removed ${removed.join(', ')} (not loaded by n8n)`);
}
