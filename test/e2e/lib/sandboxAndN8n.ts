// The set-up most e2e files share: the AWeber sandbox and a real n8n, started together for the file's tests.
import { startSandbox } from '../../sandbox';
import type { Sandbox, SandboxOptions } from '../../sandbox/types';
import { startN8n, type N8nInstance } from './n8n';

export interface SandboxAndN8n {
	readonly sandbox: Sandbox;
	readonly n8n: N8nInstance;
}

/**
 * Starts the sandbox and n8n at once in beforeAll and stops them in afterAll (n8n first, then the sandbox; whichever
 * started is stopped, also when the other failed to start). Call it in a describe block; read `sandbox` and `n8n`
 * in tests and hooks: `const env = useSandboxAndN8n(); ... env.n8n`. Hooks the file registers after this call run
 * after the start, and its afterAll hooks after the stop: register an afterAll before this call for what must go
 * while the servers still run.
 */
export function useSandboxAndN8n(sandboxOptions?: SandboxOptions): SandboxAndN8n {
	let sandbox: Sandbox | undefined;
	let n8n: N8nInstance | undefined;
	beforeAll(async () => {
		const [sandboxStart, n8nStart] = await Promise.allSettled([startSandbox(sandboxOptions), startN8n()]);
		if (sandboxStart.status === 'fulfilled') sandbox = sandboxStart.value;
		if (n8nStart.status === 'fulfilled') n8n = n8nStart.value;
		if (sandboxStart.status === 'rejected') throw sandboxStart.reason;
		if (n8nStart.status === 'rejected') throw n8nStart.reason;
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});
	// Tests read them when they run, after beforeAll started them.
	const started = <T>(value: T | undefined, name: string): T => {
		if (value === undefined) throw new Error(`The ${name} is started in beforeAll; read it inside a test or hook`);
		return value;
	};
	return {
		get sandbox() {
			return started(sandbox, 'sandbox');
		},
		get n8n() {
			return started(n8n, 'n8n instance');
		},
	};
}
