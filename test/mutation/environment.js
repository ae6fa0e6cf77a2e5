// jest.mutation.config.js's test environment (Stryker wraps it to record which tests reach which mutant).
// In Stryker's first (dry) run it notes which test files reach each mutant, for sequencer.js. When a mutant runs
// (Stryker names it in __STRYKER_ACTIVE_MUTANT__), it saves what Stryker's jest runner cannot:
// - Stryker runs only the tests that reached the mutant, by name, but jest still runs every beforeAll/afterAll of a
//   file whose tests are all filtered out (sandbox servers, harness set-up): such describe blocks are skipped whole;
// - jest's bail does not work when Stryker drives it: once one test failed the mutant is killed, so every later test
//   and describe block of that run is skipped.
// A mutant that survives ran every test that reached it, as without this. docs/testing.md#where-the-time-goes.
// The unit suite's environment (one vm context per worker, packages loaded once: ../jest/environment.js). Stryker
// runs every mutant's jest run in the same process, so n8n-core is loaded once for the whole Stryker run.
const TestEnvironment = require('../jest/environment');

const { state, activeMutant, recordDryRunFile } = require('./state');

/** The name jest matches testNamePattern against: the describe blocks' names and the test's, joined by spaces. */
function testId(test) {
	const names = [];
	for (let block = test; block && block.parent; block = block.parent) names.unshift(block.name);
	return names.join(' ');
}

function runsAnyTest(block, pattern) {
	return block.children.some((child) =>
		child.type === 'describeBlock'
			? child.mode !== 'skip' && runsAnyTest(child, pattern)
			: child.mode !== 'skip' && child.mode !== 'todo' && (!pattern || pattern.test(testId(child))),
	);
}

class MutationTestEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.testPath = context.testPath;
		this.startedAt = Date.now();
		/** Mutants this file's tests and set-up reached (dry run only). */
		this.reached = new Set();
		this.staticBefore = undefined;
	}

	/** Stryker's instrumenter context, shared by all test files of the process (undefined outside Stryker). */
	stryker() {
		return this.global.__stryker__;
	}

	async setup() {
		await super.setup();
		if (activeMutant() === undefined) this.staticBefore = { ...this.stryker()?.mutantCoverage?.static };
	}

	async teardown() {
		const coverage = this.stryker()?.mutantCoverage;
		if (activeMutant() === undefined && coverage && this.staticBefore) {
			for (const [id, hits] of Object.entries(coverage.static ?? {})) if (hits > (this.staticBefore[id] ?? 0)) this.reached.add(id);
			recordDryRunFile(this.testPath, this.reached, Date.now() - this.startedAt);
		}
		await super.teardown();
	}

	async handleTestEvent(event, circusState) {
		const mutant = activeMutant();
		if (mutant === undefined) {
			if (event.name === 'test_done') {
				const context = this.stryker();
				for (const id of Object.keys(context?.mutantCoverage?.perTest?.[context.currentTestId] ?? {})) this.reached.add(id);
			}
			return;
		}
		if (event.name === 'run_describe_start') {
			if (state.killedMutant === mutant || !runsAnyTest(event.describeBlock, circusState.testNamePattern)) event.describeBlock.mode = 'skip';
		} else if (event.name === 'test_start') {
			if (state.killedMutant === mutant) event.test.mode = 'skip';
		} else if (event.name === 'test_done' && event.test.errors.length > 0 && state.killedMutant !== mutant) {
			state.killedMutant = mutant;
			state.kills[this.testPath] = (state.kills[this.testPath] ?? 0) + 1;
		}
	}
}

module.exports = MutationTestEnvironment;
