const path = require('path');

const base = require('./jest.config');

/**
 * The unit suite as `npm run mutation` (stryker.config.js) runs it: on the TypeScript sources that Stryker mutates
 * instead of dist/, and without the tests that cover no product code or need a real build. docs/testing.md#mutation-testing.
 */
const root = __dirname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	// jest maps dependencies (for findRelatedTests, which Stryker uses) only in the files of its roots.
	roots: [...base.roots, '<rootDir>/nodes', '<rootDir>/credentials'],
	testPathIgnorePatterns: [
		...base.testPathIgnorePatterns,
		// Lint the sources (Stryker's mutated files carry its switch code and `// @ts-nocheck`, which lint rejects),
		// or check what `npm run build` / `npm pack` leave, which under Stryker was built from no mutant.
		'/test/lint/(credential-lint|package-json|package-contents|operation-docs|scan)\\.test\\.ts$',
		// The sandbox's own tests and the start scripts' tests: they load no product code, so no mutant can fail them.
		'/test/sandbox/',
		'/test/sandbox-sigterm\\.test\\.ts$',
		'/test/runtime-heartbeat\\.test\\.ts$',
	],
	// While a mutant runs: only the test files that reached it, likely killers first (sequencer.js); no set-up of
	// describe blocks none of whose tests run, and no test after the first failure (environment.js).
	testEnvironment: path.join(__dirname, 'test/mutation/environment.js'),
	testSequencer: path.join(__dirname, 'test/mutation/sequencer.js'),
	// Once a mutant is killed, the test files left are not loaded (runner.js).
	runner: path.join(__dirname, 'test/mutation/runner.js'),
	transform: {
		// One file at a time (tsconfig.test.json's isolatedModules) and no diagnostics: Stryker's mutant switches do not
		// type-check (it adds `// @ts-nocheck` to each mutated file).
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
	},
	moduleNameMapper: {
		...base.moduleNameMapper,
		// A built file that a test still requires by path runs its source instead (the harness does so itself, nodeTypes.ts).
		[`^${root}/dist/((?:nodes|credentials)/.+)\\.js$`]: path.join(__dirname, '$1.ts'),
	},
	setupFiles: [path.join(__dirname, 'test/mutation/env.ts'), ...base.setupFiles],
	// The harness's dependency on the nodes it loads by path, so Stryker runs its tests for their mutants.
	dependencyExtractor: path.join(__dirname, 'test/mutation/dependencies.js'),
};
