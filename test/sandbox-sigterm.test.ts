// `npm run sandbox` and `npm start` stop every process they started when npm itself gets SIGTERM (a process
// manager, `timeout`), as they do on Ctrl-C: nothing left running, the port free again.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const projectDir = join(__dirname, '..');

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	await new Promise((resolve) => server.close(resolve));
	if (address === null || typeof address === 'string') throw new Error('no port');
	return address.port;
}

async function portOpen(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** Every process below `root` (Linux /proc). */
function descendants(root: number): number[] {
	const children = new Map<number, number[]>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
		} catch {
			// ended while listing
		}
	}
	const found: number[] = [];
	const visit = (pid: number) => {
		for (const child of children.get(pid) ?? []) {
			found.push(child);
			visit(child);
		}
	};
	visit(root);
	return found;
}

/**
 * Whether `pid` still runs. A zombie has ended: where PID 1 (or a subreaper) does not reap orphans, as in some CI
 * containers, a process whose parent (npm) ended first stays a zombie, and `kill(pid, 0)` still succeeds on it.
 */
function alive(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
	} catch {
		return false;
	}
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

/** npm (detached: its own process group, so a failed test can end it all), its output collected. */
function startNpm(args: string[], env: NodeJS.ProcessEnv, npmPath = 'npm') {
	const child = spawn(npmPath, args, { cwd: projectDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	// `closed`: every process holding npm's output pipe has ended and all of it has been read. npm can end before its
	// output has been read (seen under load), and the sandbox writes its last line as it stops.
	const run = {
		child,
		output: '',
		exited: new Promise<void>((resolve) => child.once('exit', () => resolve())),
		closed: new Promise<void>((resolve) => child.once('close', () => resolve())),
	};
	child.stdout?.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
	return run;
}

describeOnLinux('npm run sandbox and npm start on SIGTERM', () => {
	let npm: ChildProcess | undefined;

	afterEach(() => {
		// Only matters when the test failed half-way: the process group this test started (detached).
		if (npm?.pid === undefined) return;
		try {
			process.kill(-npm.pid, 'SIGKILL');
		} catch {
			// the group is gone, as it should be
		}
	});

	// SIGTERM: npm passes it on. SIGKILL: npm ends at once, passing nothing on (as when a process manager gives up
	// waiting); the sandbox notices that the process that started it is gone.
	it.each([
		['SIGTERM', /SIGTERM received: stopping/],
		['SIGKILL', /The process that started the sandbox has ended: stopping/],
	] as const)('npm run sandbox: stops the sandbox and frees the port when npm gets %s', async (signal, said) => {
		const port = await freePort();
		const run = startNpm(['run', 'sandbox', '--silent'], { PORT: String(port), AWEBER_SANDBOX_SEED_SIZE: '5' });
		npm = run.child;
		await until('the sandbox listens', async () => run.output.includes(`127.0.0.1:${port}`) && (await portOpen(port)), 45_000).catch((error: Error) => {
			throw new Error(`${error.message}\n${run.output}`);
		});
		const children = descendants(run.child.pid as number);
		expect(children.length).toBeGreaterThan(0);

		process.kill(run.child.pid as number, signal);
		await run.exited;
		await until('every process npm started has ended', () => children.every((pid) => !alive(pid)), 10_000).catch((error: Error) => {
			throw new Error(`${error.message}: still running ${children.filter(alive).join(', ')}\n${run.output}`);
		});
		expect(await portOpen(port)).toBe(false);
		await run.closed;
		expect(run.output).toMatch(said);
	});

	it('npm start: a SIGTERM during a long step (build, n8n install) stops that step at once', async () => {
		// `npm run build` inside start.sh is replaced by a long sleep (a stand-in for the minutes-long n8n
		// install): the npm that runs `npm start` is the real one, found before the stand-in goes first on PATH.
		const work = mkdtempSync(join(tmpdir(), 'aweber-start-sigterm-'));
		try {
			const realNpm = execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
			const stepPidFile = join(work, 'step.pid');
			writeFileSync(
				join(work, 'npm'),
				`#!/usr/bin/env bash\nif [[ $1 == run && $2 == build ]]; then echo $$ >"${stepPidFile}"; exec sleep 600; fi\nexec "${realNpm}" "$@"\n`,
			);
			chmodSync(join(work, 'npm'), 0o755);
			const run = startNpm(['start'], { PATH: `${work}:${process.env.PATH ?? ''}`, AWEBER_START_FOLDER: join(work, 'user') }, realNpm);
			npm = run.child;
			await until('the build step runs', () => existsSync(stepPidFile) && readFileSync(stepPidFile, 'utf8').trim() !== '', 30_000).catch(
				(error: Error) => {
					throw new Error(`${error.message}\n${run.output}`);
				},
			);
			const step = Number(readFileSync(stepPidFile, 'utf8'));
			const children = descendants(run.child.pid as number);
			expect(children).toContain(step);

			const signalled = Date.now();
			process.kill(run.child.pid as number, 'SIGTERM');
			await run.exited;
			await until('every process npm started has ended', () => children.every((pid) => !alive(pid)), 10_000).catch((error: Error) => {
				throw new Error(`${error.message}: still running ${children.filter(alive).join(', ')}\n${run.output}`);
			});
			expect(Date.now() - signalled).toBeLessThan(10_000);
			await run.closed;
			expect(run.output).toMatch(/\[npm start\] stopping/);
		} finally {
			rmSync(work, { recursive: true, force: true });
		}
	});
});
