// The set-up of the e2e files that run AWeber nodes on one credential: the sandbox and a real n8n for the file's
// tests, one AWeber credential made in n8n once, and the sandbox reset (state and request log) before each test.
import type { SandboxOptions } from '../../sandbox/types';
import { createAweberCredential, type AweberCredentialOptions } from './credentials';
import { useSandboxAndN8n, type SandboxAndN8n } from './sandboxAndN8n';

export interface SandboxN8nAndCredential extends SandboxAndN8n {
	/** The id of the AWeber credential made in beforeAll. */
	readonly credentialId: string;
}

export interface SandboxN8nAndCredentialOptions {
	sandbox?: SandboxOptions;
	credential?: AweberCredentialOptions;
}

/**
 * useSandboxAndN8n, then an AWeber credential created in beforeAll and `sandbox.reset()` and `clearRequests()` before
 * each test. Call it in a describe block and read `env.credentialId` inside tests and hooks, as `env.sandbox`.
 */
export function useSandboxN8nAndCredential(options: SandboxN8nAndCredentialOptions = {}): SandboxN8nAndCredential {
	const env = useSandboxAndN8n(options.sandbox);
	let credentialId: string | undefined;
	beforeAll(async () => {
		credentialId = await createAweberCredential(env.n8n, env.sandbox, options.credential);
	});
	beforeEach(() => {
		env.sandbox.reset();
		env.sandbox.clearRequests();
	});
	return {
		get sandbox() {
			return env.sandbox;
		},
		get n8n() {
			return env.n8n;
		},
		get credentialId() {
			if (credentialId === undefined) throw new Error('The credential is made in beforeAll; read it inside a test or hook');
			return credentialId;
		},
	};
}
