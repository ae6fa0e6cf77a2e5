// The unit suite's test environment (jest.config.js): jest's node environment, except that every test file a jest
// worker runs gets the same vm context (one realm per worker) instead of a new one. runtime.js then loads each
// package under node_modules (n8n-core, n8n-workflow, undici, fastify: about 2 s of the 3 s a node test file took)
// once per worker and hands it to every later file. Everything of this project (the built nodes with their
// module-level state such as the rate limiters per credential and the run-state WeakMap, the harness, the sandbox,
// the test file) is still loaded afresh for each file. Per file, as before: `process` (with its own copy of
// process.env), jest's globals (describe, expect, jest), the fake timers and the spies (restored after the file).
// A test file that needs a realm of its own says so in its docblock: `@jest-environment node` (jest's own).
// AWEBER_TEST_ISOLATE=1 gives every file its own context and registry again (jest's default), for comparing or
// for finding a test that depends on what an earlier file left.
// docs/testing.md#how-a-test-file-loads.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const { TestEnvironment } = require('jest-environment-node');
const { LegacyFakeTimers, ModernFakeTimers } = require('@jest/fake-timers');
const { ModuleMocker } = require('jest-mock');

/** The context of this worker's first test file, reused by the next ones. */
let shared;
/**
 * n8n-core reads its user folder (N8N_USER_FOLDER) once per load, so with one load per worker the folder is the
 * worker's: made here and removed when the worker exits (setup-env.ts makes one per file only when none is set).
 */
let workerUserFolder;

function userFolder() {
	if (workerUserFolder === undefined) {
		workerUserFolder = mkdtempSync(path.join(tmpdir(), 'n8n-aweber-test-'));
		process.on('exit', () => rmSync(workerUserFolder, { recursive: true, force: true }));
	}
	return workerUserFolder;
}

const ISOLATE = process.env.AWEBER_TEST_ISOLATE === '1';

class SharedContextEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		if (ISOLATE) return;
		if (shared === undefined) {
			shared = { context: this.context, global: this.global };
		} else {
			// What jest's environment gives each file, set again on the shared global.
			const global = shared.global;
			// The process object jest made for this file (with its own copy of process.env), on the context made for it.
			global.process = this.global.process;
			this.context = shared.context;
			this.global = global;
			this.moduleMocker = new ModuleMocker(global);
			const timerIdToRef = (id) => ({
				id,
				ref() {
					return this;
				},
				unref() {
					return this;
				},
			});
			this.fakeTimers = new LegacyFakeTimers({
				config: config.projectConfig,
				global,
				moduleMocker: this.moduleMocker,
				timerConfig: { idToRef: timerIdToRef, refToId: (timer) => timer?.id },
			});
			this.fakeTimersModern = new ModernFakeTimers({ config: config.projectConfig, global });
		}
		// Given from outside (a run that sets N8N_USER_FOLDER), it is kept.
		if (process.env.N8N_USER_FOLDER === undefined) this.global.process.env.N8N_USER_FOLDER = userFolder();
	}
}

/** Whether jest's runtime may hand this file the packages an earlier file of the worker loaded (runtime.js). */
SharedContextEnvironment.prototype.sharesPackages = !ISOLATE;

module.exports = SharedContextEnvironment;
module.exports.TestEnvironment = SharedContextEnvironment;
