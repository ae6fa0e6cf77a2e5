// `npm run lint` (n8n-node lint with the project's eslint.config.mjs) must fail on the package.json problems that
// n8n's scanner rejects. Each case lints a temporary copy of package.json through ESLint's Node API.
import { lintCopy, readPackageFile, ruleIds } from './eslint';

const PACKAGE_JSON = readPackageFile('package.json');

function packageJsonWith(change: (manifest: Record<string, unknown>) => void): string {
	const manifest = JSON.parse(PACKAGE_JSON) as Record<string, unknown>;
	change(manifest);
	return `${JSON.stringify(manifest, null, 2)}\n`;
}

describe('lint of package.json', () => {
	it('passes on the package.json as it is', () => {
		expect(lintCopy('package.json', PACKAGE_JSON)).toEqual([]);
	});

	it('fails on a runtime dependency', () => {
		const problems = lintCopy(
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
		const problems = lintCopy(
			'package.json',
			packageJsonWith((manifest) => {
				manifest.author = { name: 'n8n-nodes-aweber contributors' };
			}),
		);
		expect(ruleIds(problems)).toContain('@n8n/community-nodes/valid-author');
		expect(problems.every((problem) => problem.severity === 2)).toBe(true);
	});

	it('fails on an author given as a name only', () => {
		const problems = lintCopy(
			'package.json',
			packageJsonWith((manifest) => {
				manifest.author = 'n8n-nodes-aweber contributors';
			}),
		);
		expect(ruleIds(problems)).toContain('@n8n/community-nodes/valid-author');
	});
});
