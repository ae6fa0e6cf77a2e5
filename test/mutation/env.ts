// jest.mutation.config.js (`npm run mutation`): the harness loads the nodes from their TypeScript sources, which
// Stryker mutates, instead of dist/ (test/harness/nodeTypes.ts, packageFile).
process.env.AWEBER_TEST_FROM_SOURCES = '1';
