// Sandbox time: starts at the real time, runs `timeScale` times faster, and can be pushed forward by hand.
// Every AWeber duration the sandbox emulates (rate window, lockout, token lifetime, broadcast sending)
// is measured on this clock, so tests can exercise minutes of AWeber behaviour in milliseconds.
export class SandboxClock {
	readonly timeScale: number;

	private readonly realStart = Date.now();

	private advancedMs = 0;

	constructor(timeScale = 1) {
		if (!(timeScale > 0)) throw new Error(`timeScale must be positive, got ${timeScale}`);
		this.timeScale = timeScale;
	}

	/** Sandbox epoch milliseconds. */
	now(): number {
		return this.realStart + (Date.now() - this.realStart) * this.timeScale + this.advancedMs;
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
