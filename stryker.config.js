/**
 * `npm run mutation`: StrykerJS over the product code (nodes/, credentials/), run by the unit suite on the TypeScript
 * sources (jest.mutation.config.js). What it measures, how to narrow it and the last figures: docs/testing.md#mutation-testing.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
module.exports = {
	mutate: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	testRunner: 'jest',
	jest: { projectType: 'custom', configFile: 'jest.mutation.config.js', enableFindRelatedTests: true },
	// Each mutant runs only the tests that executed its code in the first (dry) run.
	coverageAnalysis: 'perTest',
	// A mutant in code that runs only when a module loads (node descriptions, module constants) would need the
	// whole suite again for each one: such mutants are reported as ignored, not tested (docs/testing.md says so).
	ignoreStatic: true,
	// Results kept between runs: a re-run tests only mutants whose code or covering tests changed. reports/ is ignored by git.
	incremental: true,
	incrementalFile: 'reports/mutation/stryker-incremental.json',
	// A mutant may make a loop endless: it is stopped after its tests' own time x 1.5 + 10 s. 10 s rather than
	// Stryker's 5 s because the 2-core machines are often shared, and a slow-but-finite test must not count as a loop.
	timeoutMS: 10000,
	timeoutFactor: 1.5,
	// The first run of the whole suite (without the excluded tests) takes minutes on a busy 2-core machine.
	dryRunTimeoutMinutes: 30,
	// Stryker types nothing: ts-jest transpiles file by file (jest.mutation.config.js), so the mutant switches need no types.
	disableTypeChecks: '{nodes,credentials}/**/*.ts',
	reporters: ['clear-text', 'progress', 'html', 'json'],
	clearTextReporter: { reportMutants: true, reportTests: false, reportScoreTable: true },
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	thresholds: { high: 90, low: 85, break: null },
	tempDirName: '.stryker-tmp',
	// Not copied to Stryker's sandbox: what the tests under jest.mutation.config.js never read.
	ignorePatterns: ['dist', '.n8n-runtime*', '.compat', 'coverage', '.tmp', 'bench/.tmp', 'reports', '*.log'],
};
