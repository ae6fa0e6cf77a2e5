// Runs n8n's community-package scanner (@n8n/scan-community-package) on this package as n8n does before
// verifying it, on local folders instead of a published version (the scanner's CLI only takes an npm name):
//   source:  the checkout, with the scanner's source globs (package.json, nodes/, credentials/);
//   tarball: `npm pack` of the built package, unpacked, with the scanner's tarball globs (**/*.js, package.json).
// The scanner's own analyzePackage gives each leg's verdict (it fails on errors only); a second pass with the
// scanner's own ESLint config counts warnings, which fail here too. The tarball's file list must hold only what
// n8n loads. Run `npm run build` first (`npm run scan` does).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { ESLint as ESLintClass } from 'eslint';

import { tarballProblems, type PackageManifest } from './package-contents';

const ROOT = path.resolve(__dirname, '../..');
const SCANNER = '@n8n/scan-community-package/scanner/scanner.mjs';
/** The globs analyzePackageByName passes for the unpacked tarball. */
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

export interface LegResult {
	name: string;
	passed: boolean;
	errors: number;
	warnings: number;
	problems: string[];
}

/** Lints `dir` as the scanner does, with `patterns` (the scanner's globs); passes only without errors and warnings. */
export async function scanLeg(name: string, dir: string, patterns: string[]): Promise<LegResult> {
	const scanner = await import(SCANNER);
	const verdict = await scanner.analyzePackage(dir, patterns);

	// The same ESLint, config, options and files as analyzePackage, keeping warnings as well.
	const fromScanner = createRequire(require.resolve(SCANNER));
	const { ESLint } = fromScanner('eslint') as { ESLint: typeof ESLintClass };
	const glob = fromScanner('fast-glob') as { sync(patterns: string[], options: object): string[] };
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	const results = files.length > 0 ? await eslint.lintFiles(files) : [];
	const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
	const warnings = results.reduce((sum, result) => sum + result.warningCount, 0);

	const problems: string[] = [];
	if (errors + warnings > 0) {
		problems.push(String(await (await eslint.loadFormatter('stylish')).format(results)));
	}
	if (!verdict.passed && errors === 0) problems.push(`analyzePackage: ${verdict.message ?? 'failed'}\n${verdict.details ?? ''}`);
	if (files.length === 0) problems.push('no files to analyze');
	return { name, passed: verdict.passed && errors + warnings === 0 && problems.length === 0, errors, warnings, problems };
}

interface PackedFile {
	path: string;
}

function packTarball(workDir: string): { dir: string; files: string[] } {
	const packDir = path.join(workDir, 'pack');
	mkdirSync(packDir);
	const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [packed] = JSON.parse(output) as Array<{ filename: string; files: PackedFile[] }>;
	if (!packed) throw new Error('npm pack reported no tarball');
	const dir = path.join(workDir, 'package');
	mkdirSync(dir);
	execFileSync('tar', ['-xzf', path.join(packDir, packed.filename), '-C', dir, '--strip-components=1']);
	return { dir, files: packed.files.map((file) => file.path) };
}

async function main(): Promise<void> {
	const scanner = await import(SCANNER);
	const workDir = mkdtempSync(path.join(tmpdir(), 'aweber-scan-'));
	try {
		const legs: LegResult[] = [await scanLeg('source', ROOT, scanner.SOURCE_FILE_PATTERNS)];

		const tarball = packTarball(workDir);
		const manifest = JSON.parse(readFileSync(path.join(tarball.dir, 'package.json'), 'utf8')) as PackageManifest;
		const tarballLeg = await scanLeg('tarball', tarball.dir, TARBALL_FILE_PATTERNS);
		const contents = tarballProblems(tarball.files, manifest);
		if (contents.length > 0) {
			tarballLeg.passed = false;
			tarballLeg.problems.push(`package contents:\n  ${contents.join('\n  ')}`);
		}
		legs.push(tarballLeg);

		for (const leg of legs) {
			console.log(`${leg.passed ? 'PASS' : 'FAIL'} ${leg.name}: ${leg.errors} errors, ${leg.warnings} warnings`);
			for (const problem of leg.problems) console.log(problem);
		}
		if (!legs.every((leg) => leg.passed)) process.exitCode = 1;
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
