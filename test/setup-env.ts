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
