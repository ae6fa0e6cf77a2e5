// What the mutation environment (environment.js) learns and the sequencer (sequencer.js) uses, kept for the life of
// one Stryker test process (jest loads both modules outside the tests' sandbox, so they share this module), and the
// dry run's map also in a file in Stryker's sandbox for its other test processes.
const { existsSync, readFileSync, writeFileSync } = require('fs');
const path = require('path');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
const MAP_FILE = path.join(process.cwd(), '.mutation-test-files.json');

const state = {
	/** Mutant id → the test files whose tests (or set-up) ran its code in the dry run. */
	filesByMutant: undefined,
	/** Test file → how long it took in the dry run (ms). */
	durations: {},
	/** Test file → how many mutants a test of it has killed in this process: likely killers run first. */
	kills: {},
	/** The mutant a test already failed for. */
	killedMutant: undefined,
};

function activeMutant() {
	return process.env[ACTIVE_MUTANT];
}

function recordDryRunFile(testPath, mutantIds, durationMs) {
	state.filesByMutant ??= {};
	for (const id of mutantIds) (state.filesByMutant[id] ??= []).push(testPath);
	state.durations[testPath] = durationMs;
	writeFileSync(MAP_FILE, JSON.stringify({ filesByMutant: state.filesByMutant, durations: state.durations }));
}

function loadDryRunMap() {
	if (state.filesByMutant === undefined && existsSync(MAP_FILE)) Object.assign(state, JSON.parse(readFileSync(MAP_FILE, 'utf8')));
	return state.filesByMutant;
}

module.exports = { state, activeMutant, recordDryRunFile, loadDryRunMap };
