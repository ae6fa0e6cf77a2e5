// jest.mutation.config.js's test runner: jest's own, in band as Stryker runs it, except that once a test has failed
// for the mutant that runs (environment.js notes it), the test files left are not loaded at all. Each would load
// n8n-core, the harness and a sandbox (about half a second) only to skip every test: for a mutant of the request path,
// which most node test files reach, that was most of the time a killed mutant took. docs/testing.md#where-the-time-goes.
const TestRunner = require('jest-runner').default;

const { state, activeMutant } = require('./state');

class MutationTestRunner extends TestRunner {
	async runTests(tests, watcher, options) {
		const mutant = activeMutant();
		if (mutant === undefined || !options.serial) return await super.runTests(tests, watcher, options);
		for (const test of tests) {
			if (state.killedMutant === mutant) return;
			await super.runTests([test], watcher, options);
		}
	}
}

module.exports = MutationTestRunner;
