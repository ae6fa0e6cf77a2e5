// `npm run scan` (scripts/scan/scan.ts) fails a leg on what n8n's scanner rejects, errors and warnings alike.
// Each case scans a temporary copy of the source (package.json and the credential) with the scanner's own
// functions and globs, in a child process (the scanner is an ES module, which jest cannot load). The three copies,
// each in its own folder, are scanned one after the other in one child process: starting it (tsx, the scanner, ESLint
// and n8n's plugins) is most of a scan's time.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { readPackageFile, ROOT } from './eslint';

interface Leg {
	passed: boolean;
	errors: number;
	warnings: number;
	problems: string[];
}

const CREDENTIAL = 'credentials/AWeberOAuth2Api.credentials.ts';

const SCAN_SOURCE_LEGS = `
const { scanLeg } = require(${JSON.stringify(path.join(ROOT, 'scripts/scan/scan.ts'))});
import('@n8n/scan-community-package/scanner/scanner.mjs').then(async (scanner) => {
	const legs = [];
	for (const dir of process.argv.slice(1)) legs.push(await scanLeg('source', dir, scanner.SOURCE_FILE_PATTERNS));
	process.stdout.write(JSON.stringify(legs));
});
`;

/** Scans each set of files (path relative to the package root → text) in its own temporary copy; one leg per set. */
function scanCopies(sets: Array<Record<string, string>>): Leg[] {
	const dirs: string[] = [];
	try {
		for (const files of sets) {
			const dir = mkdtempSync(path.join(tmpdir(), 'aweber-scan-test-'));
			dirs.push(dir);
			symlinkSync(path.join(ROOT, 'icons'), path.join(dir, 'icons'), 'dir');
			for (const [relativePath, text] of Object.entries(files)) {
				mkdirSync(path.dirname(path.join(dir, relativePath)), { recursive: true });
				writeFileSync(path.join(dir, relativePath), text);
			}
		}
		const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', SCAN_SOURCE_LEGS, ...dirs], { cwd: ROOT, encoding: 'utf8' });
		if (run.status !== 0) throw new Error(`scan exited ${run.status}: ${run.stderr}`);
		const legs = JSON.parse(run.stdout) as Leg[];
		if (legs.length !== sets.length) throw new Error(`scan gave ${legs.length} legs for ${sets.length} copies`);
		return legs;
	} finally {
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	}
}

function packageJsonWith(change: (manifest: Record<string, unknown>) => void): string {
	const manifest = JSON.parse(readPackageFile('package.json')) as Record<string, unknown>;
	change(manifest);
	return JSON.stringify(manifest, null, 2);
}

describe('npm run scan, source leg', () => {
	const credential = readPackageFile(CREDENTIAL);
	const renamed = credential.replace(
		"\t\t\tname: 'webhookVerificationSecret',",
		"\t\t\t// eslint-disable-next-line @n8n/community-nodes/credential-unnecessary-password\n\t\t\tname: 'webhookVerificationKey',",
	);
	let asTheyAre: Leg;
	let authorWithoutEmail: Leg;
	let warningAlone: Leg;
	beforeAll(() => {
		[asTheyAre, authorWithoutEmail, warningAlone] = scanCopies([
			{ 'package.json': readPackageFile('package.json'), [CREDENTIAL]: credential },
			{
				'package.json': packageJsonWith((manifest) => {
					manifest.author = { name: 'n8n-nodes-aweber contributors' };
				}),
				[CREDENTIAL]: credential,
			},
			{ 'package.json': readPackageFile('package.json'), [CREDENTIAL]: renamed },
		]);
	});

	it('passes on package.json and the credential as they are', () => {
		expect(asTheyAre).toMatchObject({
			passed: true,
			errors: 0,
			warnings: 0,
		});
	});

	it('fails on an author without an email (an error)', () => {
		const leg = authorWithoutEmail;
		expect(leg).toMatchObject({ passed: false, warnings: 0 });
		expect(leg.errors).toBeGreaterThan(0);
		expect(leg.problems.join('\n')).toContain('valid-author');
	});

	it('fails on a warning alone, with eslint-disable comments ignored', () => {
		expect(renamed).not.toBe(credential);
		const leg = warningAlone;
		expect(leg).toMatchObject({ passed: false, errors: 0, warnings: 1 });
		expect(leg.problems.join('\n')).toContain('credential-unnecessary-password');
	});
});
