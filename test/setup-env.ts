import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// n8n-core keeps instance settings (an encryption key) in the user folder; keep tests out of ~/.n8n.
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-aweber-test-'));
