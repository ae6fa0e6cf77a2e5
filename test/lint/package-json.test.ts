// `npm run lint` (n8n-node lint with the project's eslint.config.mjs) must fail on the package.json problems that
// n8n's scanner rejects. Each case lints a temporary copy of package.json through ESLint's Node API; the four copies
// are linted in one ESLint process (its start is most of the time), each in its own folder.
import { lintCopiesEach, readPackageFile, ruleIds, type Problem } from './eslint';

const PACKAGE_JSON = readPackageFile('package.json');

function packageJsonWith(change: (manifest: Record<string, unknown>) => void): string {
	const manifest = JSON.parse(PACKAGE_JSON) as Record<string, unknown>;
	change(manifest);
	return `${JSON.stringify(manifest, null, 2)}\n`;
}

const CASES = {
	asItIs: PACKAGE_JSON,
	runtimeDependency: packageJsonWith((manifest) => {
		manifest.dependencies = { axios: '^1.7.0' };
	}),
	authorWithoutEmail: packageJsonWith((manifest) => {
		manifest.author = { name: 'n8n-nodes-aweber contributors' };
	}),
	authorAsName: packageJsonWith((manifest) => {
		manifest.author = 'n8n-nodes-aweber contributors';
	}),
};

describe('lint of package.json', () => {
	let problemsOf: Record<keyof typeof CASES, Problem[]>;
	beforeAll(() => {
		const names = Object.keys(CASES) as Array<keyof typeof CASES>;
		const linted = lintCopiesEach(names.map((name) => ({ 'package.json': CASES[name] })));
		problemsOf = Object.fromEntries(names.map((name, index) => [name, linted[index]['package.json'] ?? []])) as typeof problemsOf;
	});

	it('passes on the package.json as it is', () => {
		expect(problemsOf.asItIs).toEqual([]);
	});

	it('fails on a runtime dependency', () => {
		const problems = problemsOf.runtimeDependency;
		expect(problems).toEqual([
			expect.objectContaining({ ruleId: '@n8n/community-nodes/no-runtime-dependencies', severity: 2 }),
		]);
	});

	it('fails on an author without an email', () => {
		const problems = problemsOf.authorWithoutEmail;
		expect(ruleIds(problems)).toContain('@n8n/community-nodes/valid-author');
		expect(problems.every((problem) => problem.severity === 2)).toBe(true);
	});

	it('fails on an author given as a name only', () => {
		const problems = problemsOf.authorAsName;
		expect(ruleIds(problems)).toContain('@n8n/community-nodes/valid-author');
	});
});
