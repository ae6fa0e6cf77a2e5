const path = require('path');

/**
 * The unit suite. `AWEBER_COMPAT_DIR` (set by scripts/compat/run.sh, `npm run test:compat`) points at a folder
 * whose node_modules hold another n8n-core/n8n-workflow pair: every import of them, from the tests, the harness
 * and the built nodes alike, then loads that pair, so the suite runs on that n8n version's RoutingNode.
 */
const compatDir = process.env.AWEBER_COMPAT_DIR ? path.resolve(process.env.AWEBER_COMPAT_DIR, 'node_modules') : undefined;
const compatModules = compatDir
	? {
			'^n8n-workflow$': path.join(compatDir, 'n8n-workflow'),
			'^n8n-workflow/(.*)$': path.join(compatDir, 'n8n-workflow', '$1'),
			'^n8n-core$': path.join(compatDir, 'n8n-core'),
			'^n8n-core/(.*)$': path.join(compatDir, 'n8n-core', '$1'),
		}
	: {};

/** @type {import('jest').Config} */
module.exports = {
	// One vm context per jest worker, in which n8n-core, n8n-workflow and the other packages load once per worker
	// instead of once per test file; the project's modules still load per file (test/jest/, docs/testing.md).
	testEnvironment: '<rootDir>/test/jest/environment.js',
	runtime: '<rootDir>/test/jest/runtime.js',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	moduleNameMapper: compatModules,
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/setup-after-env.ts'],
	testTimeout: 60000,
	// jest's default is one worker less than the cores, which on the 2-core machines ran every file in one process
	// while the other core idled: a worker per core (the suite's files are independent: free ports, own temp folders).
	maxWorkers: '100%',
};
