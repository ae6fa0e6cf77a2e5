// `npm run mutation:sample -- [--lines 130] [--seed 1] [--concurrency 2]`: an estimate of the whole mutation score of
// nodes/ and credentials/ in about an hour, where the full run takes many (docs/testing.md#the-current-score).
// It picks lines at random (seeded) among those that carry a mutant, runs Stryker on every mutant that lies within
// one of those lines, and prints the covered score with a 95 % interval by resampling the lines (a cluster sample).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';

import { Instrumenter } from '@stryker-mutator/instrumenter';

const argument = (name, fallback) => {
	const at = process.argv.indexOf(`--${name}`);
	return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const lineCount = argument('lines', 130);
const seed = argument('seed', 1);
const concurrency = argument('concurrency', 2);
const reportOnly = process.argv.includes('--report-only');

/** A small seeded generator (mulberry32): the same seed picks the same lines, so a sample can be run again. */
function random(state) {
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

async function mutantLines() {
	const listed = spawnSync('git', ['ls-files', 'nodes/**/*.ts', 'credentials/**/*.ts'], { encoding: 'utf8' }).stdout.trim().split('\n');
	const quiet = () => false;
	const logger = { isTraceEnabled: quiet, isDebugEnabled: quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };
	const files = listed.map((name) => ({ name, content: readFileSync(name, 'utf8'), mutate: true }));
	const { mutants } = await new Instrumenter(logger).instrument(files, { plugins: null, excludedMutations: [], ignorers: [], noHeader: true });
	// Only mutants within one line: a range of whole lines holds them exactly (a multi-line one would bring all it encloses).
	const lines = new Set(mutants.filter((m) => m.location.start.line === m.location.end.line).map((m) => `${m.fileName}:${m.location.start.line + 1}`));
	return { lines: [...lines].sort(), all: mutants.length, singleLine: mutants.filter((m) => m.location.start.line === m.location.end.line).length };
}

function pick(lines) {
	const next = random(seed);
	const pool = [...lines];
	const picked = [];
	while (picked.length < Math.min(lineCount, pool.length)) picked.push(pool.splice(Math.floor(next() * pool.length), 1)[0]);
	return picked.sort();
}

/** Covered score of a set of line clusters: (killed + timeout) / (killed + timeout + survived). */
function score(clusters) {
	let detected = 0;
	let covered = 0;
	for (const cluster of clusters) {
		detected += cluster.detected;
		covered += cluster.covered;
	}
	return covered === 0 ? NaN : detected / covered;
}

function report(sample) {
	const json = JSON.parse(readFileSync('reports/mutation/mutation.json', 'utf8'));
	const clusters = new Map(sample.picked.map((line) => [line, { line, detected: 0, covered: 0, byStatus: {} }]));
	for (const [file, { mutants }] of Object.entries(json.files)) {
		for (const mutant of mutants) {
			const cluster = clusters.get(`${file}:${mutant.location.start.line}`);
			if (!cluster || mutant.location.start.line !== mutant.location.end.line) continue;
			cluster.byStatus[mutant.status] = (cluster.byStatus[mutant.status] ?? 0) + 1;
			if (mutant.status === 'Killed' || mutant.status === 'Timeout') cluster.detected++;
			if (mutant.status === 'Killed' || mutant.status === 'Timeout' || mutant.status === 'Survived') cluster.covered++;
		}
	}
	const all = [...clusters.values()];
	const statuses = {};
	for (const cluster of all) for (const [status, count] of Object.entries(cluster.byStatus)) statuses[status] = (statuses[status] ?? 0) + count;
	const next = random(seed + 1);
	const resampled = Array.from({ length: 2000 }, () => score(all.map(() => all[Math.floor(next() * all.length)]))).filter((s) => !Number.isNaN(s)).sort((a, b) => a - b);
	const percent = (value) => `${(value * 100).toFixed(1)} %`;
	console.log(`Sample: ${sample.picked.length} of ${sample.lines} lines that carry a mutant (seed ${seed}); ${sample.singleLine} of ${sample.all} mutants lie within one line.`);
	console.log(`Mutants in the sample by status: ${JSON.stringify(statuses)}`);
	console.log(`Estimated covered score of nodes/ and credentials/: ${percent(score(all))} (95 % interval ${percent(resampled[50])} to ${percent(resampled[1949])})`);
	const byFolder = new Map();
	for (const cluster of all) {
		const folder = cluster.line.split('/').slice(0, 2).join('/');
		byFolder.set(folder, [...(byFolder.get(folder) ?? []), cluster]);
	}
	for (const [folder, folderClusters] of [...byFolder].sort()) {
		const covered = folderClusters.reduce((sum, c) => sum + c.covered, 0);
		if (covered > 0) console.log(`  ${folder}: ${percent(score(folderClusters))} of ${covered} covered mutants`);
	}
	for (const cluster of all) if (cluster.byStatus.Survived) console.log(`  survived: ${cluster.line} (${cluster.byStatus.Survived})`);
}

mkdirSync('reports/mutation', { recursive: true });
const samplePath = `reports/mutation/sample-${seed}.json`;
if (!reportOnly) {
	const { lines, all, singleLine } = await mutantLines();
	const sample = { seed, lines: lines.length, all, singleLine, picked: pick(lines) };
	writeFileSync(samplePath, JSON.stringify(sample, null, 1));
	const mutate = sample.picked.map((line) => `${line}-${line.split(':')[1]}`).join(',');
	const run = spawnSync(
		'npx',
		['stryker', 'run', '--mutate', mutate, '--concurrency', String(concurrency), '--incrementalFile', `reports/mutation/sample-${seed}-incremental.json`],
		{ stdio: 'inherit' },
	);
	if (run.status !== 0) process.exit(run.status ?? 1);
}
report(JSON.parse(readFileSync(samplePath, 'utf8')));
