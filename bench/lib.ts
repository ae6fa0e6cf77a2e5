// Small helpers of the benchmark: machine facts, medians, the sandbox request log, formatting.
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';


export interface Machine {
	nproc: number;
	cpuModel: string;
	memoryGiB: number;
	node: string;
	platform: string;
}

export function machine(): Machine {
	let nproc = cpus().length;
	try {
		nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || nproc;
	} catch {
		// nproc is missing outside Linux; os.cpus() is close enough.
	}
	return {
		nproc,
		cpuModel: cpus()[0]?.model ?? 'unknown',
		memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
	};
}

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function round(value: number, digits = 1): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

export function log(message: string): void {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export function bytes(value: number): string {
	return value >= 2 ** 20 ? `${round(value / 2 ** 20, 1)} MiB` : `${round(value / 1024, 1)} KiB`;
}
