/** End-to-end suite: a real n8n (scripts/n8n-runtime.sh) against the AWeber sandbox. Run with `npm run test:e2e`. */
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	// On n8n 1.x (N8N_RUNTIME_LINE=1): every node, the workflows, OAuth connect, the webhooks and the nodes as AI tools
	// (MCP Server Trigger, AI Agent); queue mode and the editor screenshots are checked on 2.x only.
	testPathIgnorePatterns:
		process.env.N8N_RUNTIME_LINE === '1' ? ['/node_modules/', 'queue-mode\\.e2e', 'screenshots\\.e2e'] : ['/node_modules/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	// Installs the n8n runtime when missing (first time: minutes) and packs the built package once.
	globalSetup: '<rootDir>/test/e2e/lib/global-setup.ts',
	// n8n starts in ~20 s (longer on a busy machine); one instance per file serves its tests.
	testTimeout: 300000,
	slowTestThreshold: 120,
};
