import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// n8n-core keeps instance settings (an encryption key) in the user folder; keep tests out of ~/.n8n. Each test file
// gets its own (jest gives each file its own process.env), removed after the file (setup-after-env.ts).
if (process.env.N8N_USER_FOLDER === undefined) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'n8n-aweber-test-'));
	process.env.AWEBER_TEST_USER_FOLDER = process.env.N8N_USER_FOLDER;
}
// n8n's logger writes node log lines to the console; tests assert on behaviour, not logs.
process.env.N8N_LOG_LEVEL ??= 'silent';

// n8n-workflow (2.x) runs the regular expressions of its own parameter checks (a resource locator's pattern, for
// one) in a vm under a 250 ms wall-clock guard. Under CI's load (two test workers, installs in the background) that
// guard fired on a plain locator check and failed a whole run ("Regular expression execution timed out", seen on
// n8n-workflow 2.41 in test/nodes/subscriber-update-fields.test.ts). The tests check this package, not n8n's guard:
// the same patterns run here without the wall clock. Versions without the hook (1.x) run them natively anyway.
installRegexEngineWithoutWallClock();

function installRegexEngineWithoutWallClock(): void {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const workflow = require('n8n-workflow') as { setSafeRegexEngine?: (engine: unknown) => void };
	if (typeof workflow.setSafeRegexEngine !== 'function') return;
	const withGlobal = (flags = '') => (flags.includes('g') ? flags : `${flags}g`);
	workflow.setSafeRegexEngine({
		exec: (pattern: string, input: string, flags?: string) => new RegExp(pattern, flags).exec(input),
		test: (pattern: string, input: string, flags?: string) => new RegExp(pattern, flags).test(input),
		replace: (pattern: string, input: string, flags: string | undefined, replacement: string) => input.replace(new RegExp(pattern, flags), replacement),
		matchAll: (pattern: string, input: string, flags?: string) => Array.from(input.matchAll(new RegExp(pattern, withGlobal(flags)))),
		split: (pattern: string, input: string, flags?: string) => input.split(new RegExp(pattern, flags)),
	});
}
