// The unit suite's module loader (jest.config.js `runtime`): jest's own, except that a module under node_modules
// that an earlier test file of the same jest worker loaded is handed over instead of loaded again, when both files
// run in the worker's one vm context (environment.js). n8n-core with n8n-workflow and their dependencies are about
// 1,750 modules, loaded once per worker instead of once per file. The project's own modules (the built nodes, the
// harness, the sandbox, the test) stay per file: the package's module-level state does not pass between files.
// `jest.isolateModules` still loads everything afresh. docs/testing.md#how-a-test-file-loads.
const path = require('node:path');

const Runtime = require('jest-runtime').default;

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** Modules under node_modules, by path, loaded by this worker's test files in the shared context. */
const workerPackages = new Map();

const isPackage = (key) => typeof key === 'string' && key.includes(NODE_MODULES);

/** jest's module registry of one file, whose packages are the worker's. */
class SharingRegistry extends Map {
	get(key) {
		return isPackage(key) ? workerPackages.get(key) : super.get(key);
	}

	has(key) {
		return isPackage(key) ? workerPackages.has(key) : super.has(key);
	}

	set(key, value) {
		if (isPackage(key)) workerPackages.set(key, value);
		else super.set(key, value);
		return this;
	}

	delete(key) {
		return isPackage(key) ? workerPackages.delete(key) : super.delete(key);
	}

	keys() {
		return [...super.keys(), ...workerPackages.keys()][Symbol.iterator]();
	}
}

/** The runtime of the file that runs now: a package loaded by an earlier file requires through it from then on. */
let current;

class SharingRuntime extends Runtime {
	constructor(config, environment, ...rest) {
		super(config, environment, ...rest);
		if (environment.sharesPackages === true) {
			this._moduleRegistry = new SharingRegistry();
			current = this;
		}
	}

	requireModuleOrMock(from, moduleName) {
		// A package's own later `require` (inside a function) goes through the runtime of the file that loaded it.
		if (this.isTornDown && current !== undefined && current !== this) return current.requireModuleOrMock(from, moduleName);
		return super.requireModuleOrMock(from, moduleName);
	}
}

module.exports = SharingRuntime;
