// The pinned n8n runtime (scripts/n8n-runtime.sh) as the e2e suite uses it: install once, pack our package once.
import { spawn } from 'node:child_process';
import path from 'node:path';

export const PROJECT_DIR = path.resolve(__dirname, '../../..');
export const RUNTIME_SCRIPT = path.join(PROJECT_DIR, 'scripts/n8n-runtime.sh');
/** The n8n line under test: 2 (default) or 1 (`N8N_RUNTIME_LINE=1`, n8n 1.x), as scripts/n8n-runtime.sh reads it. */
export const RUNTIME_LINE = process.env.N8N_RUNTIME_LINE === '1' ? 1 : 2;
export const RUNTIME_DIR =
	process.env.N8N_RUNTIME_DIR ?? path.join(PROJECT_DIR, RUNTIME_LINE === 1 ? '.n8n-runtime-1.x' : '.n8n-runtime');

/** Set by the global setup so that every test file installs the same tarball. */
const PACKAGE_ENV = 'AWEBER_E2E_PACKAGE_TGZ';

/** Runs a runtime-script command; resolves with its stdout, rejects with its stderr. */
export async function runtimeScript(args: string[], options: { env?: NodeJS.ProcessEnv; echo?: boolean } = {}): Promise<string> {
	return await new Promise((resolve, reject) => {
		const child = spawn('bash', [RUNTIME_SCRIPT, ...args], {
			cwd: PROJECT_DIR,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			// A first install takes minutes: show its progress lines.
			if (options.echo) process.stderr.write(chunk);
		});
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) resolve(stdout.trim());
			else reject(new Error(`n8n-runtime.sh ${args.join(' ')} exited ${code}:\n${stderr.slice(-4000)}`));
		});
	});
}

/** Installs Node 24 + n8n into .n8n-runtime/ unless already there (< 1 s then). */
export async function ensureRuntime(): Promise<void> {
	const installed = await runtimeScript(['check']).then(
		() => true,
		() => false,
	);
	if (!installed) await runtimeScript(['install'], { echo: true });
}

let packed: Promise<string> | undefined;

/** `npm pack` of the built package (dist/ must be current: `npm run test:e2e` builds first). */
export async function packagedTarball(): Promise<string> {
	if (process.env[PACKAGE_ENV]) return process.env[PACKAGE_ENV];
	packed ??= runtimeScript(['pack']).then((tarball) => {
		process.env[PACKAGE_ENV] = tarball;
		return tarball;
	});
	return await packed;
}

/** The runtime's own copy of a module n8n uses (e.g. flatted), loaded on demand. */
export function runtimeModule<T>(name: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(path.join(RUNTIME_DIR, 'n8n/node_modules', name)) as T;
}
