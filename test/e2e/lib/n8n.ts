// A real n8n process (the pinned runtime) with our package installed as a community package, driven over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { PROJECT_DIR, RUNTIME_SCRIPT, ensureRuntime, packagedTarball, runtimeScript } from './runtime';

export const OWNER = { email: 'owner@example.com', password: 'Sandbox-Owner-1', firstName: 'Sandbox', lastName: 'Owner' };

/** n8n binds its session cookie to this header (a hash of it is in the JWT): every call must send the same. */
const BROWSER_ID = 'n8n-nodes-aweber-e2e';

export type N8nCommand = 'start' | 'worker' | 'webhook';

export interface StartN8nOptions {
	/** Extra environment for n8n (wins over the runtime script's defaults), e.g. EXECUTIONS_MODE=queue. */
	env?: Record<string, string>;
	/**
	 * Default: a fresh temporary folder (n8n's SQLite database, encryption key, log), removed by stop() unless
	 * AWEBER_E2E_KEEP_USER_FOLDER=1. A folder given here is kept.
	 */
	userFolder?: string;
	/** Default 'start'. 'worker' answers only /healthz; 'webhook' only /webhook/... (and /healthz). */
	command?: N8nCommand;
	/** Default: a free port. For 'worker' it is the health-check port. */
	port?: number;
	/** Owner setup, login and API key. Default: true for 'start', false otherwise. */
	setup?: boolean;
	/** Seconds to wait for /healthz/readiness. Default 180. */
	readyTimeoutSeconds?: number;
}

export interface HttpResponse<T = unknown> {
	status: number;
	headers: Headers;
	/** Parsed JSON when the answer is JSON, else the text. */
	body: T;
}

export interface N8nInstance {
	baseUrl: string;
	port: number;
	userFolder: string;
	command: N8nCommand;
	/** n8n's stdout and stderr. */
	logFile: string;
	/** Session cookie header value (`n8n-auth=...`) of the owner, once logged in. */
	cookie: string;
	/** Header n8n ties the session to; send it with `cookie` (e.g. from a browser context). */
	browserId: string;
	/** Public-API key (X-N8N-API-KEY). */
	apiKey: string;
	/** Internal REST API under /rest, as the owner; answers unwrapped from `{ data }`; throws unless 2xx. */
	rest<T = any>(method: string, restPath: string, body?: unknown): Promise<T>;
	/** Public API under /api/v1 with the API key; throws unless 2xx. */
	api<T = any>(method: string, apiPath: string, body?: unknown): Promise<T>;
	/** Any path on n8n (e.g. /types/nodes.json, /webhook/x) with the owner's session; never throws on status. */
	request<T = any>(method: string, fullPath: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>>;
	/** Ends n8n and its task runner (SIGTERM to the process group, SIGKILL after 30 s). */
	stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Environment without the test process's own settings: n8n ones (the unit-test setup sets N8N_USER_FOLDER) and
 * jest's NODE_ENV=test, with which n8n logs nothing and exits right after start.
 */
function baseEnvironment(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// N8N_RUNTIME_LINE and N8N_RUNTIME_DIR choose the runtime (scripts/n8n-runtime.sh); they are not n8n settings.
		const ours = /^N8N_RUNTIME_(LINE|DIR)$/.test(key);
		if (ours || !/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|NODE_ENV$|JEST_)/.test(key)) env[key] = value;
	}
	return env;
}

/**
 * Whether a process of the group still runs. Zombies do not count: where PID 1 does not reap orphans (some CI
 * containers), n8n's task runner can stay a zombie after n8n ends, and `kill(-pgid, 0)` still succeeds on it.
 */
function processGroupAlive(pgid: number): boolean {
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(group) === pgid && state !== 'Z') return true;
		} catch {
			// ended while listing
		}
	}
	return false;
}

async function stopProcessGroup(child: ChildProcess): Promise<void> {
	const pgid = child.pid;
	if (pgid === undefined || !processGroupAlive(pgid)) return;
	process.kill(-pgid, 'SIGTERM');
	for (let waited = 0; waited < 300 && processGroupAlive(pgid); waited++) await sleep(100);
	if (processGroupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
	for (let waited = 0; waited < 50 && processGroupAlive(pgid); waited++) await sleep(100);
}

function tail(file: string, lines = 40): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

async function waitReady(
	baseUrl: string,
	child: ChildProcess,
	logFile: string,
	timeoutSeconds: number,
	command: N8nCommand,
): Promise<void> {
	const deadline = Date.now() + timeoutSeconds * 1000;
	// n8n 1.x answers readiness before its REST API is mounted; the main process must serve both.
	const paths = command === 'start' ? ['/healthz/readiness', '/rest/settings'] : ['/healthz/readiness'];
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`n8n exited before it was ready (${child.exitCode ?? child.signalCode}):\n${tail(logFile)}`);
		}
		try {
			const statuses = await Promise.all(paths.map(async (readyPath) => (await fetch(`${baseUrl}${readyPath}`)).status));
			if (statuses.every((status) => status === 200)) return;
		} catch {
			// Not listening yet.
		}
		await sleep(300);
	}
	throw new Error(`n8n at ${baseUrl} not ready after ${timeoutSeconds} s:\n${tail(logFile)}`);
}

async function parseBody(response: Response): Promise<unknown> {
	const text = await response.text();
	if ((response.headers.get('content-type') ?? '').includes('json') && text) {
		try {
			return JSON.parse(text);
		} catch {
			return text;
		}
	}
	return text;
}

/**
 * Runs an n8n CLI command (export:credentials, import:workflow, ...) on a user folder, next to or instead of a
 * running n8n (SQLite allows it for reads); resolves with its stdout.
 */
export async function runN8nCli(userFolder: string, args: string[], env: Record<string, string> = {}): Promise<string> {
	return await runtimeScript(['n8n', userFolder, ...args], { env: { ...baseEnvironment(), ...env } });
}

/**
 * Starts n8n from the pinned runtime (installed first when missing) with our package installed in its
 * user folder, waits until it is ready, and (for 'start') sets up the owner, logs in and creates an API key.
 */
export async function startN8n(options: StartN8nOptions = {}): Promise<N8nInstance> {
	const command = options.command ?? 'start';
	await ensureRuntime();
	const userFolder = options.userFolder ?? mkdtempSync(path.join(tmpdir(), 'n8n-aweber-e2e-'));
	// About 85 MB each (SQLite database, package): temporary ones go when n8n stops.
	const removeUserFolder = async () => {
		if (options.userFolder === undefined && process.env.AWEBER_E2E_KEEP_USER_FOLDER !== '1') {
			rmSync(userFolder, { recursive: true, force: true });
		}
	};
	await runtimeScript(['install-package', userFolder, await packagedTarball()]);

	const port = options.port ?? (await freePort());
	const baseUrl = `http://127.0.0.1:${port}`;
	const env: NodeJS.ProcessEnv = { ...baseEnvironment(), N8N_PORT: String(port), ...options.env };
	if (command === 'worker') {
		// The worker serves no UI; its health server is how we know it is up.
		env.QUEUE_HEALTH_CHECK_ACTIVE ??= 'true';
		env.QUEUE_HEALTH_CHECK_PORT ??= String(port);
		env.N8N_WORKER_SERVER_ADDRESS ??= '127.0.0.1';
	}
	const logFile = path.join(userFolder, `n8n-${command}-${port}.log`);
	const log = openSync(logFile, 'a');
	// detached: n8n, its task runner and the script's shells form one process group that stop() ends together.
	const child = spawn('bash', [RUNTIME_SCRIPT, 'n8n', userFolder, command], {
		cwd: PROJECT_DIR,
		env,
		detached: true,
		stdio: ['ignore', log, log],
	});
	closeSync(log);

	let cookie = '';
	let apiKey = '';
	const send = async <T>(method: string, fullPath: string, body: unknown, headers: Record<string, string>, asOwner: boolean) => {
		const response = await fetch(`${baseUrl}${fullPath}`, {
			method,
			headers: {
				...(asOwner ? { 'browser-id': BROWSER_ID, ...(cookie ? { cookie } : {}) } : {}),
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			},
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
			redirect: 'manual',
		});
		return { status: response.status, headers: response.headers, body: (await parseBody(response)) as T };
	};
	const request = async <T>(method: string, fullPath: string, body?: unknown, headers: Record<string, string> = {}) =>
		await send<T>(method, fullPath, body, headers, true);
	const expectOk = <T>(method: string, fullPath: string, response: HttpResponse<unknown>): T => {
		if (response.status < 200 || response.status > 299) {
			throw new Error(`${method} ${fullPath} -> ${response.status}: ${JSON.stringify(response.body).slice(0, 2000)}`);
		}
		const body = response.body as { data?: T } | T;
		return body !== null && typeof body === 'object' && 'data' in body ? (body.data as T) : (body as T);
	};

	const instance: N8nInstance = {
		baseUrl,
		port,
		userFolder,
		command,
		logFile,
		browserId: BROWSER_ID,
		get cookie() {
			return cookie;
		},
		get apiKey() {
			return apiKey;
		},
		request,
		rest: async (method, restPath, body) =>
			expectOk(method, `/rest${restPath}`, await request(method, `/rest${restPath}`, body)),
		api: async (method, apiPath, body) => {
			const fullPath = `/api/v1${apiPath}`;
			const response = await send(method, fullPath, body, { 'X-N8N-API-KEY': apiKey }, false);
			if (response.status < 200 || response.status > 299) {
				throw new Error(`${method} ${fullPath} -> ${response.status}: ${JSON.stringify(response.body).slice(0, 2000)}`);
			}
			return response.body as any;
		},
		stop: async () => {
			await stopProcessGroup(child);
			await removeUserFolder();
		},
	};

	try {
		await waitReady(baseUrl, child, logFile, options.readyTimeoutSeconds ?? 180, command);
		if (options.setup ?? command === 'start') {
			const settings = await instance.rest<{ userManagement: { showSetupOnFirstLoad: boolean } }>('GET', '/settings');
			if (settings.userManagement.showSetupOnFirstLoad) await instance.rest('POST', '/owner/setup', OWNER);
			const login = await request('POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
			expectOk('POST', '/rest/login', login);
			const sessionCookie = login.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
			if (!sessionCookie) throw new Error('n8n login set no n8n-auth cookie');
			cookie = sessionCookie.split(';')[0];
			const scopes = await instance.rest<string[]>('GET', '/api-keys/scopes');
			const created = await instance.rest<{ rawApiKey: string }>('POST', '/api-keys', {
				label: `e2e-${Date.now()}`,
				scopes,
				expiresAt: null,
			});
			apiKey = created.rawApiKey;
		}
	} catch (error) {
		await instance.stop();
		throw error;
	}
	return instance;
}
