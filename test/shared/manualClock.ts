import type { LimiterClock } from '../../nodes/shared/rateLimiter';

/** A clock that only moves when the test says so; sleeps resolve when their time is reached. */
export class ManualClock implements LimiterClock {
	private time = 0;

	private sleepers: Array<{ at: number; wake: () => void }> = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((wake) => this.sleepers.push({ at: this.time + Math.max(0, ms), wake }));
	}

	/** Moves time forward, waking sleepers in order and letting promise chains settle. */
	async advance(ms: number): Promise<void> {
		const target = this.time + ms;
		for (;;) {
			await settle();
			let next: { at: number; wake: () => void } | undefined;
			for (const sleeper of this.sleepers) if (sleeper.at <= target && (!next || sleeper.at < next.at)) next = sleeper;
			if (!next) break;
			this.time = Math.max(this.time, next.at);
			this.sleepers.splice(this.sleepers.indexOf(next), 1);
			next.wake();
		}
		this.time = target;
		await settle();
	}
}

export async function settle(): Promise<void> {
	for (let round = 0; round < 20; round++) await Promise.resolve();
}

/**
 * Steps this machine's wall clock (`Date.now`, `new Date()`) by `ms` (negative: back, as an NTP correction or a
 * resumed VM does), leaving the monotonic clock (`performance.now`) and the sandbox's AWeber clock alone. Undone by
 * `jest.restoreAllMocks()` or the returned function.
 */
export function stepWallClock(ms: number): () => void {
	const wallNow = Date.now.bind(Date);
	const spy = jest.spyOn(Date, 'now').mockImplementation(() => wallNow() + ms);
	return () => spy.mockRestore();
}
