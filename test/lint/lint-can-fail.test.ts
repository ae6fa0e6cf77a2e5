// `npm run lint` (n8n-node lint, the project's eslint.config.mjs) must catch what n8n's scanner rejects.
// Each case lints a faulty copy of a file through ESLint's CLI with the project's config, as if it were the
// real file (--stdin-filename), with inline eslint-disable comments ignored as n8n's scanner ignores them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const ESLINT_BIN = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');
const CREDENTIAL = 'credentials/AWeberOAuth2Api.credentials.ts';

interface Problem {
	ruleId: string | null;
	severity: 1 | 2;
	message: string;
}

/** Lints `text` as the file at `relativePath`; returns ESLint's problems for it. */
function lintAs(relativePath: string, text: string): Problem[] {
	const run = spawnSync(
		process.execPath,
		[ESLINT_BIN, '--no-inline-config', '--format', 'json', '--stdin', '--stdin-filename', relativePath],
		{ cwd: ROOT, input: text, encoding: 'utf8' },
	);
	if (run.status !== 0 && run.status !== 1) throw new Error(`eslint exited ${run.status}: ${run.stderr}`);
	const [result] = JSON.parse(run.stdout) as Array<{ filePath: string; messages: Problem[] }>;
	expect(result?.filePath).toBe(path.join(ROOT, relativePath));
	return result?.messages ?? [];
}

function packageJsonWith(change: (manifest: Record<string, unknown>) => void): string {
	const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
	change(manifest);
	return `${JSON.stringify(manifest, null, 2)}\n`;
}

const ruleIds = (problems: Problem[]) => problems.map((problem) => problem.ruleId);

describe('lint of package.json', () => {
	it('passes on the package.json as it is', () => {
		expect(lintAs('package.json', readFileSync(path.join(ROOT, 'package.json'), 'utf8'))).toEqual([]);
	});

	it('fails on a runtime dependency', () => {
		const problems = lintAs(
			'package.json',
			packageJsonWith((manifest) => {
				manifest.dependencies = { axios: '^1.7.0' };
			}),
		);
		expect(problems).toEqual([
			expect.objectContaining({ ruleId: '@n8n/community-nodes/no-runtime-dependencies', severity: 2 }),
		]);
	});

	it('fails on an author without an email', () => {
		const problems = lintAs(
			'package.json',
			packageJsonWith((manifest) => {
				manifest.author = { name: 'n8n-nodes-aweber contributors' };
			}),
		);
		expect(ruleIds(problems)).toContain('@n8n/community-nodes/valid-author');
		expect(problems.every((problem) => problem.severity === 2)).toBe(true);
	});
});

describe('lint of the credential', () => {
	const source = readFileSync(path.join(ROOT, CREDENTIAL), 'utf8');

	it('passes as it is, with eslint-disable comments ignored', () => {
		expect(lintAs(CREDENTIAL, source)).toEqual([]);
	});

	it('warns when the masked webhook key field has a name that does not say it is a secret', () => {
		const renamed = source.replace("name: 'webhookVerificationSecret',", "name: 'webhookVerificationKey',");
		expect(renamed).not.toBe(source);
		expect(lintAs(CREDENTIAL, renamed)).toEqual([
			expect.objectContaining({ ruleId: '@n8n/community-nodes/credential-unnecessary-password', severity: 1 }),
		]);
	});
});
