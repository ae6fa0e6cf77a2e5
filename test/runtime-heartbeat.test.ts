import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The n8n install in `npm start` runs minutes-long steps with their output in a log: scripts/n8n-runtime.sh says what
// step it is at, that it is still running (every 15 s; 1 s here), and how long it took.
describe('progress of a long set-up step (scripts/n8n-runtime.sh)', () => {
	const work = mkdtempSync(join(tmpdir(), 'aweber-heartbeat-'));
	afterAll(() => rmSync(work, { recursive: true, force: true }));

	function runStep(command: string) {
		const log = join(work, 'step.log');
		const result = spawnSync(
			'bash',
			['-c', `set -euo pipefail; source scripts/n8n-runtime.sh; n8n_rt_with_heartbeat "the step" "${log}" ${command}`],
			{ cwd: join(__dirname, '..'), encoding: 'utf8', env: { ...process.env, N8N_RT_HEARTBEAT_SECONDS: '1' } },
		);
		return { ...result, log: readFileSync(log, 'utf8') };
	}

	it('says the step is still running while it runs, then how long it took; its output goes to the log', () => {
		const result = runStep(`bash -c 'echo installing; sleep 3.2'`);
		expect(result.status).toBe(0);
		const heartbeats = result.stderr.match(/\.\.\. the step: \d+ s, still running/g) ?? [];
		expect(heartbeats.length).toBeGreaterThanOrEqual(2);
		expect(result.stderr).toMatch(/the step: done in \d+ s/);
		expect(result.stdout).toBe('');
		expect(result.log).toContain('installing');
	});

	it('passes a failing step on, without saying it is done', () => {
		const result = runStep(`bash -c 'echo broken; exit 3'`);
		expect(result.status).toBe(3);
		expect(result.stderr).not.toMatch(/done in/);
		expect(result.log).toContain('broken');
	});
});
