import { rmSync } from 'node:fs';
import path from 'node:path';

// n8n-core 1.x starts a 60 s SSH-tunnel cleanup timer that keeps the process alive (2.x unrefs it) the first time
// a node runs: stop it after each test file so jest exits on every n8n version of the compatibility matrix.
afterAll(() => {
	const coreFolder = path.dirname(require.resolve('n8n-core/package.json'));
	// n8n-core's own copy of @n8n/di holds the instance.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Container } = require(require.resolve('@n8n/di', { paths: [coreFolder] })) as {
		Container: { get(type: unknown): { onShutdown?: () => void } };
	};
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { SSHClientsManager } = require(path.join(coreFolder, 'dist/execution-engine/ssh-clients-manager')) as {
		SSHClientsManager?: unknown;
	};
	if (SSHClientsManager) Container.get(SSHClientsManager).onShutdown?.();
});

// The user folder setup-env.ts made for this file (not one given from outside): without this, every test file of
// every run (and of every mutant under `npm run mutation`) left one in the temporary folder.
afterAll(() => {
	const own = process.env.AWEBER_TEST_USER_FOLDER;
	if (own !== undefined) rmSync(own, { recursive: true, force: true });
});
