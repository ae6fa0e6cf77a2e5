// jest.mutation.config.js's test sequencer. When a mutant runs, Stryker asks jest for the tests that reached it by
// name, among every test file related to the mutated file (for a shared file, nearly all of them): jest would load
// each file (n8n, the harness, the sandbox) only to skip its tests. This keeps the files whose tests reached the
// mutant in the dry run (environment.js), those that killed the most mutants first, then the quickest.
// docs/testing.md#where-the-time-goes.
const Sequencer = require('@jest/test-sequencer').default;

const { state, activeMutant, loadDryRunMap } = require('./state');

class MutationSequencer extends Sequencer {
	sort(tests) {
		const mutant = activeMutant();
		const files = mutant === undefined ? undefined : loadDryRunMap()?.[mutant];
		if (files === undefined) return super.sort(tests);
		const reached = new Set(files);
		const kept = tests.filter((test) => reached.has(test.path));
		const order = (test) => [-(state.kills[test.path] ?? 0), state.durations[test.path] ?? Infinity];
		return kept.sort((a, b) => {
			const [killsA, timeA] = order(a);
			const [killsB, timeB] = order(b);
			return killsA - killsB || timeA - timeB;
		});
	}
}

module.exports = MutationSequencer;
