// Sandbox time: starts at the real time, runs `timeScale` times faster, and can be pushed forward by hand.
// Every AWeber duration the sandbox emulates (rate window, lockout, token lifetime, broadcast sending)
// is measured on this clock, so tests can exercise minutes of AWeber behaviour in milliseconds.
/**
 * AWeber's clock runs on AWeber's machines: a step of this machine's wall clock (a test's `stepWallClock`, an NTP
 * correction) does not move it, so the sandbox keeps the original `Date.now`.
 */
const aweberWallClock = Date.now.bind(Date);

export class SandboxClock {
	readonly timeScale: number;

	private readonly realStart = aweberWallClock();

	private advancedMs = 0;

	constructor(timeScale = 1) {
		if (!(timeScale > 0)) throw new Error(`timeScale must be positive, got ${timeScale}`);
		this.timeScale = timeScale;
	}

	/** Sandbox epoch milliseconds. */
	now(): number {
		return this.realStart + (aweberWallClock() - this.realStart) * this.timeScale + this.advancedMs;
	}

	advance(ms: number): void {
		if (ms < 0) throw new Error('The sandbox clock cannot go back');
		this.advancedMs += ms;
	}

	/** Real milliseconds that a sandbox duration takes (for timers). */
	toRealMs(sandboxMs: number): number {
		return sandboxMs / this.timeScale;
	}

	isoNow(): string {
		return new Date(this.now()).toISOString();
	}
}
