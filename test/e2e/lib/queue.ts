// n8n in queue mode for the e2e suite: Redis and PostgreSQL (Debian packages) on loopback in temporary folders,
// then an n8n main process, one worker and one webhook processor sharing them. Facts: docs/queue-mode.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort, startN8n, type N8nInstance } from './n8n';

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** A server the tests started; stop() is safe to call twice and after a failed start. */
export interface LocalServer {
	port: number;
	/** Its data folder and log. */
	dir: string;
	stop(): Promise<void>;
}

export interface PostgresServer extends LocalServer {
	database: string;
	user: string;
	password: string;
}

const MISSING_PACKAGES =
	'queue mode needs the Debian packages redis-server and postgresql (apt-get update && apt-get install -y redis-server postgresql)';

function requireBinary(file: string): string {
	if (!existsSync(file)) throw new Error(`${file} not found: ${MISSING_PACKAGES}`);
	return file;
}

/** Debian installs PostgreSQL's server programs under /usr/lib/postgresql/<major>/bin, outside PATH. */
function postgresBin(program: string): string {
	const root = '/usr/lib/postgresql';
	const majors = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
	if (majors.length === 0) throw new Error(`${root} not found: ${MISSING_PACKAGES}`);
	const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
	return requireBinary(path.join(root, newest, 'bin', program));
}

async function portAnswers(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** Redis's own protocol, so that no redis-cli or client library is needed to know it is up. */
async function redisPing(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		let answer = '';
		socket.setTimeout(1000, () => socket.destroy());
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			answer += chunk.toString();
			if (answer.includes('\r\n')) socket.end();
		});
		socket.once('close', () => resolve(answer.startsWith('+PONG')));
		socket.once('error', () => resolve(false));
	});
}

async function waitFor(what: string, check: () => Promise<boolean>, log: string, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`${what} not up after ${timeoutMs} ms:\n${tailOf(log)}`);
		await sleep(100);
	}
}

function tailOf(file: string, lines = 30): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

async function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill('SIGTERM');
	const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
	if (!killed) {
		child.kill('SIGKILL');
		await exited;
	}
}

/** redis-server on 127.0.0.1 and a free port, without persistence (queue jobs only need to live for the test). */
export async function startRedis(): Promise<LocalServer> {
	const redisServer = requireBinary('/usr/bin/redis-server');
	const dir = mkdtempSync(path.join(tmpdir(), 'n8n-aweber-redis-'));
	const port = await freePort();
	const log = path.join(dir, 'redis.log');
	const child = spawn(
		redisServer,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir, '--logfile', log],
		{ stdio: 'ignore' },
	);
	const server: LocalServer = {
		port,
		dir,
		stop: async () => {
			await stopChild(child);
			rmSync(dir, { recursive: true, force: true });
		},
	};
	try {
		await waitFor('redis-server', async () => {
			if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}):\n${tailOf(log)}`);
			return await redisPing(port);
		}, log);
	} catch (error) {
		await server.stop();
		throw error;
	}
	return server;
}

/**
 * The PostgreSQL programs as the cluster's owner. initdb refuses to run as root, so as root they run as the
 * Debian package's `postgres` user (runuser); as anyone else, as that user.
 */
function asClusterOwner(program: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
	const [command, commandArgs] =
		process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
	const result = spawnSync(command, commandArgs, { env: { ...process.env, ...env }, encoding: 'utf8', cwd: '/' });
	if (result.status !== 0) {
		throw new Error(`${path.basename(program)} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stderr}${result.stdout}`);
	}
}

function ownByClusterOwner(file: string): void {
	if (process.getuid?.() !== 0) return;
	const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
	const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
	if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error(`no postgres user: ${MISSING_PACKAGES}`);
	chownSync(file, uid, gid);
}

/**
 * A throw-away PostgreSQL cluster (initdb in a temporary folder) listening on 127.0.0.1 and a free port, with a
 * password user and an empty database for n8n. Its Unix socket stays in the same folder, away from the system's.
 */
export async function startPostgres(): Promise<PostgresServer> {
	const initdb = postgresBin('initdb');
	const pgCtl = postgresBin('pg_ctl');
	const createdb = postgresBin('createdb');
	const dir = mkdtempSync(path.join(tmpdir(), 'n8n-aweber-postgres-'));
	ownByClusterOwner(dir);
	const data = path.join(dir, 'data');
	const log = path.join(dir, 'postgres.log');
	const user = 'n8n';
	const password = randomBytes(12).toString('hex');
	const database = 'n8n';
	const passwordFile = path.join(dir, 'password');
	writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
	ownByClusterOwner(passwordFile);
	const port = await freePort();

	let started = false;
	const server: PostgresServer = {
		port,
		dir,
		database,
		user,
		password,
		stop: async () => {
			if (started) {
				started = false;
				try {
					asClusterOwner(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
				} catch (error) {
					// Already gone (crashed) is fine; anything else is worth seeing.
					if (existsSync(path.join(data, 'postmaster.pid'))) throw error;
				}
			}
			rmSync(dir, { recursive: true, force: true });
		},
	};
	try {
		asClusterOwner(initdb, ['-D', data, '-U', user, `--pwfile=${passwordFile}`, '-A', 'scram-sha-256', '-E', 'UTF8', '--no-locale']);
		started = true;
		asClusterOwner(pgCtl, ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
		await waitFor('PostgreSQL', async () => await portAnswers(port), log);
		asClusterOwner(createdb, ['-h', '127.0.0.1', '-p', String(port), '-U', user, database], { PGPASSWORD: password });
	} catch (error) {
		await server.stop().catch(() => undefined);
		throw error;
	}
	return server;
}

export interface QueueCluster {
	/** UI, REST and public API; in 2.38 it also answers production webhooks (see docs/queue-mode.md). */
	main: N8nInstance;
	/** Runs every execution; only a health server (/healthz) listens on its port. */
	worker: N8nInstance;
	/** Every worker, `worker` first (one unless `workers` asked for more). */
	workers: N8nInstance[];
	/** `n8n webhook`: answers production webhooks (/webhook/...) and puts the executions on the queue. */
	webhook: N8nInstance;
	redis: LocalServer;
	postgres: PostgresServer;
	/** The environment every n8n process of the cluster shares. */
	env: Record<string, string>;
	/** Stops the n8n processes, then Redis and PostgreSQL; every step runs even when one fails. */
	stop(): Promise<void>;
}

/** Runs every stop, even after a failure, and reports the first failure. */
async function stopAll(stoppers: Array<() => Promise<void>>): Promise<void> {
	const results = await Promise.allSettled(stoppers.map(async (stop) => await stop()));
	const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
	if (failed) throw failed.reason;
}

/**
 * Redis, PostgreSQL, and n8n as main + worker + webhook processor in queue mode. Every process gets its own user
 * folder (with our package installed), its own port and task-broker port, and the same database, Redis and
 * encryption key. Production webhook URLs point at the webhook processor.
 */
export async function startQueueCluster(
	options: {
		env?: Record<string, string>;
		/** How many workers (1). */
		workers?: number;
		/** Environment of the workers only, on top of `env` (N8N_CONCURRENCY_PRODUCTION_LIMIT=1: one execution each). */
		workerEnv?: Record<string, string>;
	} = {},
): Promise<QueueCluster> {
	// n8n processes stop first (together), the services they use after them.
	const n8nStops: Array<() => Promise<void>> = [];
	const serviceStops: Array<() => Promise<void>> = [];
	// The three n8n user folders (config, log, our installed package) share one temp folder, removed at stop.
	const folders = mkdtempSync(path.join(tmpdir(), 'n8n-aweber-queue-'));
	const stopStarted = async () => {
		try {
			await stopAll(n8nStops.splice(0));
		} finally {
			try {
				await stopAll(serviceStops.splice(0));
			} finally {
				rmSync(folders, { recursive: true, force: true });
			}
		}
	};
	const userFolder = (name: string) => path.join(folders, name);
	try {
		const redis = await startRedis();
		serviceStops.push(redis.stop);
		const postgres = await startPostgres();
		serviceStops.push(postgres.stop);

		const webhookPort = await freePort();
		const env: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			// Credentials are encrypted in the shared database: every process must hold the same key.
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			// The editor shows, and triggers log, production URLs on the webhook processor.
			N8N_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
			// Runs started from the editor (Manual Trigger) go to the worker too, not only triggered ones.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			...options.env,
		};

		// Main first: it runs the database migrations the others wait for.
		const main = await startN8n({ env, userFolder: userFolder('main') });
		n8nStops.push(main.stop);
		const workerCount = Math.max(1, options.workers ?? 1);
		const workerEnv = { ...env, ...options.workerEnv };
		const helpers = await Promise.allSettled([
			startN8n({ command: 'webhook', env, port: webhookPort, userFolder: userFolder('webhook') }),
			...Array.from({ length: workerCount }, async (_, index) =>
				await startN8n({ command: 'worker', env: workerEnv, userFolder: userFolder(index === 0 ? 'worker' : `worker-${index + 1}`) }),
			),
		]);
		for (const helper of helpers) if (helper.status === 'fulfilled') n8nStops.push(helper.value.stop);
		for (const helper of helpers) if (helper.status === 'rejected') throw helper.reason;
		const [webhook, ...workers] = helpers.map((helper) => (helper as PromiseFulfilledResult<N8nInstance>).value);
		return { main, worker: workers[0], workers, webhook, redis, postgres, env, stop: stopStarted };
	} catch (error) {
		await stopStarted().catch(() => undefined);
		throw error;
	}
}

/** Execution ids a worker reports having run ("Worker started execution <id> (job <n>)" in its log). */
export function executionsRunBy(worker: N8nInstance): string[] {
	const log = readFileSync(worker.logFile, 'utf8');
	return [...log.matchAll(/Worker started execution (\S+) \(job/g)].map((match) => match[1]);
}
