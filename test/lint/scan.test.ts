// `npm run scan` (scripts/scan/scan.ts) fails a leg on what n8n's scanner rejects, errors and warnings alike.
// Each case scans a temporary copy of the source (package.json and the credential) with the scanner's own
// functions and globs, in a child process (the scanner is an ES module, which jest cannot load).
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

const SCAN_SOURCE_LEG = `
const { scanLeg } = require(${JSON.stringify(path.join(ROOT, 'scripts/scan/scan.ts'))});
import('@n8n/scan-community-package/scanner/scanner.mjs').then(async (scanner) => {
	const leg = await scanLeg('source', process.argv[1], scanner.SOURCE_FILE_PATTERNS);
	process.stdout.write(JSON.stringify(leg));
});
`;

function scanCopy(files: Record<string, string>): Leg {
	const dir = mkdtempSync(path.join(tmpdir(), 'aweber-scan-test-'));
	try {
		symlinkSync(path.join(ROOT, 'icons'), path.join(dir, 'icons'), 'dir');
		for (const [relativePath, text] of Object.entries(files)) {
			mkdirSync(path.dirname(path.join(dir, relativePath)), { recursive: true });
			writeFileSync(path.join(dir, relativePath), text);
		}
		const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', SCAN_SOURCE_LEG, dir], { cwd: ROOT, encoding: 'utf8' });
		if (run.status !== 0) throw new Error(`scan exited ${run.status}: ${run.stderr}`);
		return JSON.parse(run.stdout) as Leg;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function packageJsonWith(change: (manifest: Record<string, unknown>) => void): string {
	const manifest = JSON.parse(readPackageFile('package.json')) as Record<string, unknown>;
	change(manifest);
	return JSON.stringify(manifest, null, 2);
}

describe('npm run scan, source leg', () => {
	const credential = readPackageFile(CREDENTIAL);

	it('passes on package.json and the credential as they are', () => {
		expect(scanCopy({ 'package.json': readPackageFile('package.json'), [CREDENTIAL]: credential })).toMatchObject({
			passed: true,
			errors: 0,
			warnings: 0,
		});
	});

	it('fails on an author without an email (an error)', () => {
		const leg = scanCopy({
			'package.json': packageJsonWith((manifest) => {
				manifest.author = { name: 'n8n-nodes-aweber contributors' };
			}),
			[CREDENTIAL]: credential,
		});
		expect(leg).toMatchObject({ passed: false, warnings: 0 });
		expect(leg.errors).toBeGreaterThan(0);
		expect(leg.problems.join('\n')).toContain('valid-author');
	});

	it('fails on a warning alone, with eslint-disable comments ignored', () => {
		const renamed = credential.replace(
			"\t\t\tname: 'webhookVerificationSecret',",
			"\t\t\t// eslint-disable-next-line @n8n/community-nodes/credential-unnecessary-password\n\t\t\tname: 'webhookVerificationKey',",
		);
		expect(renamed).not.toBe(credential);
		const leg = scanCopy({ 'package.json': readPackageFile('package.json'), [CREDENTIAL]: renamed });
		expect(leg).toMatchObject({ passed: false, errors: 0, warnings: 1 });
		expect(leg.problems.join('\n')).toContain('credential-unnecessary-password');
	});
});
