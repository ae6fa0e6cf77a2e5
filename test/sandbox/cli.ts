// `npm run sandbox`: the AWeber sandbox on its own, until Ctrl-C.
// Environment: PORT (default 8787), AWEBER_SANDBOX_TIME_SCALE (default 1), AWEBER_SANDBOX_SEED_SIZE (default 250),
// AWEBER_SANDBOX_LOG (request journal file). Flags --port=, --time-scale=, --seed-size= override them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { SANDBOX_CUSTOMER_LOGIN } from './apps';
import { startSandbox } from './index';

const DEFAULT_PORT = 8787;

function setting(flag: string, envName: string): string | undefined {
	const prefix = `--${flag}=`;
	const fromFlag = process.argv.slice(2).find((arg) => arg.startsWith(prefix));
	return fromFlag !== undefined ? fromFlag.slice(prefix.length) : process.env[envName];
}

function numberSetting(flag: string, envName: string): number | undefined {
	const raw = setting(flag, envName);
	if (raw === undefined || raw === '') return undefined;
	const value = Number(raw);
	if (!Number.isFinite(value)) throw new Error(`${envName} / --${flag} must be a number, got "${raw}"`);
	return value;
}

/** The parent process id of `pid`, or undefined once it has ended (Linux: /proc; elsewhere: ps). */
function parentOf(pid: number): number | undefined {
	try {
		// The command name (field 2) is in parentheses and may hold spaces: the fields after the last ')' are plain.
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
	} catch {
		try {
			const ppid = Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
			return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
		} catch {
			return undefined;
		}
	}
}

/**
 * Calls `onGone` once the processes that started this one are gone. `npm run sandbox` execs node itself (no sh or
 * tsx launcher between npm and this process), so npm passes a SIGTERM straight here; but npm can also end without
 * passing it on (killed outright, or a SIGTERM that arrives while npm is not forwarding), and then nothing else would
 * stop this process. Watched: our parent (npm, or whoever ran node) and its parent; when either ends, or is
 * replaced, the sandbox stops as on Ctrl-C.
 */
function watchLaunchers(onGone: () => void): void {
	const parent = process.ppid;
	const grandparent = parentOf(parent);
	const timer = setInterval(() => {
		if (process.ppid !== parent || (grandparent !== undefined && grandparent > 1 && parentOf(parent) !== grandparent)) {
			clearInterval(timer);
			onGone();
		}
	}, 500);
	timer.unref();
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({
		port: numberSetting('port', 'PORT') ?? DEFAULT_PORT,
		timeScale: numberSetting('time-scale', 'AWEBER_SANDBOX_TIME_SCALE'),
		seedSize: numberSetting('seed-size', 'AWEBER_SANDBOX_SEED_SIZE'),
	});
	const { apps, seed } = sandbox;
	const lines = [
		'AWeber sandbox is running.',
		'',
		`  API base URL:   ${sandbox.apiBaseUrl}   (resources under ${sandbox.apiBaseUrl}/1.0)`,
		`  Auth base URL:  ${sandbox.authBaseUrl}   (/oauth2/authorize, /oauth2/token, /oauth2/revoke)`,
		`  Control plane:  ${sandbox.apiBaseUrl}/__sandbox`,
		'',
		'  Confidential app:',
		`    client id:     ${apps.confidential.clientId}`,
		`    client secret: ${apps.confidential.clientSecret}`,
		`    redirect URIs: ${apps.confidential.redirectUris.join(', ')}`,
		'  Public app (PKCE):',
		`    client id:     ${apps.public.clientId}`,
		`    redirect URIs: ${apps.public.redirectUris.join(', ')}`,
		`  Sign-in on the authorization page: ${SANDBOX_CUSTOMER_LOGIN.username} / ${SANDBOX_CUSTOMER_LOGIN.password}`,
		'',
		`  Account ${seed.accountId} "${seed.company}", lists: ${Object.entries(seed.lists).map(([name, id]) => `${name} ${id}`).join(', ')}`,
		`  Time scale: ${sandbox.clock.timeScale}x`,
		'',
		'  A token without the browser flow (all scopes):',
		`    curl -s -X POST ${sandbox.apiBaseUrl}/__sandbox/token`,
		'  then:',
		`    curl -s -H "Authorization: Bearer <access_token>" ${sandbox.apiBaseUrl}/1.0/accounts`,
		'',
		'Press Ctrl-C to stop.',
	];
	process.stdout.write(`${lines.join('\n')}\n`);

	let stopping = false;
	const stop = (reason: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`${reason}: stopping.\n`);
		sandbox.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(`${signal} received`));
	watchLaunchers(() => stop('The process that started the sandbox has ended'));
}

main().catch((error: unknown) => {
	process.stderr.write(`The sandbox could not start: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
