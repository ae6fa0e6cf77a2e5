// The sandbox in its own process (`test/sandbox/cli.ts`), driven through its control plane: AWeber is a
// remote server, so the benchmark keeps the server's work off the n8n process's CPU, as in production.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { request } from 'undici';

import { sandboxCredentialData } from '../test/harness/aweber';
import type { RequestLogEntry, Sandbox, SandboxApps, SeedInfo, TokenRecord } from '../test/sandbox/types';

interface ControlInfo {
	apiBaseUrl: string;
	authBaseUrl: string;
	apps: SandboxApps;
	seed: SeedInfo;
	now: string;
	timeScale: number;
}

/** Every sandbox started and not yet stopped, so a failed benchmark can stop them all. */
const running = new Set<RemoteSandbox>();

export async function stopAllSandboxes(): Promise<void> {
	await Promise.all([...running].map(async (sandbox) => await sandbox.stop()));
}

export class RemoteSandbox {
	private constructor(
		private readonly child: ChildProcess,
		readonly apiBaseUrl: string,
		readonly authBaseUrl: string,
		readonly apps: SandboxApps,
		public seed: SeedInfo,
		readonly timeScale: number,
	) {}

	static async start(options: { timeScale: number; seedSize?: number }): Promise<RemoteSandbox> {
		const projectRoot = path.resolve(__dirname, '..');
		const args = ['--import', 'tsx', path.join('test', 'sandbox', 'cli.ts'), '--port=0', `--time-scale=${options.timeScale}`];
		if (options.seedSize !== undefined) args.push(`--seed-size=${options.seedSize}`);
		const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		const baseUrl = await new Promise<string>((resolve, reject) => {
			const onData = (chunk: Buffer) => {
				output += chunk.toString();
				const match = /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
				if (match) {
					child.stdout?.off('data', onData);
					resolve(match[1]);
				}
			};
			child.stdout?.on('data', onData);
			child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
			child.on('exit', (code) => reject(new Error(`The sandbox exited (${code}): ${output.slice(-2000)}`)));
		});
		// Keep reading so a full pipe never blocks the sandbox.
		child.stdout?.resume();
		const info = (await (await request(`${baseUrl}/__sandbox/`)).body.json()) as ControlInfo;
		const sandbox = new RemoteSandbox(child, baseUrl, baseUrl, info.apps, info.seed, info.timeScale);
		running.add(sandbox);
		return sandbox;
	}

	private async control(method: 'GET' | 'POST' | 'DELETE', route: string, body?: object): Promise<unknown> {
		const answer = await request(`${this.apiBaseUrl}/__sandbox${route}`, {
			method,
			headers: body ? { 'content-type': 'application/json' } : {},
			body: body ? JSON.stringify(body) : undefined,
		});
		const text = await answer.body.text();
		if (answer.statusCode >= 300) throw new Error(`sandbox ${method} ${route}: ${answer.statusCode} ${text.slice(0, 300)}`);
		return text === '' ? undefined : (JSON.parse(text) as unknown);
	}

	async requests(): Promise<RequestLogEntry[]> {
		return (await this.control('GET', '/requests')) as RequestLogEntry[];
	}

	/** Requests that reached AWeber's API (not OAuth). */
	async apiCalls(): Promise<RequestLogEntry[]> {
		return (await this.requests()).filter((entry) => entry.path.startsWith('/1.0/'));
	}

	async clearRequests(): Promise<void> {
		await this.control('DELETE', '/requests');
	}

	/** Fresh seed data, rate-limit state and request log. */
	async reset(): Promise<void> {
		this.seed = ((await this.control('POST', '/reset', {})) as { seed: SeedInfo }).seed;
	}

	async issueToken(): Promise<TokenRecord> {
		return (await this.control('POST', '/token', {})) as TokenRecord;
	}

	/** Moves AWeber's clock on (a fresh rate-limit window after the bench's own set-up calls). */
	async advanceClock(seconds: number): Promise<void> {
		await this.control('POST', '/clock/advance', { seconds });
	}

	/** Sandbox time (epoch ms). */
	async now(): Promise<number> {
		return Date.parse(((await this.control('GET', '/')) as ControlInfo).now);
	}

	/** An AWeber credential connected to the sandbox, as the tests' harness builds it. */
	async credentialData(): Promise<ICredentialDataDecryptedObject> {
		const token = await this.issueToken();
		const asSandbox = { apps: this.apps, apiBaseUrl: this.apiBaseUrl, authBaseUrl: this.authBaseUrl, clock: { timeScale: this.timeScale } };
		return sandboxCredentialData(asSandbox as unknown as Sandbox, { token });
	}

	async stop(): Promise<void> {
		if (this.child.exitCode !== null || this.child.signalCode !== null) return;
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		this.child.kill('SIGTERM');
		await exited;
		running.delete(this);
	}
}
