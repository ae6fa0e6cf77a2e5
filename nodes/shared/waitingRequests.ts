/** The execution was cancelled (or hit its timeout) while the request waited for its turn. */
export class RateLimitWaitAborted extends Error {
	constructor() {
		super('Stopped waiting for the AWeber rate limit: the execution was cancelled');
		this.name = 'RateLimitWaitAborted';
	}
}

/**
 * Calls `handler` once when `signal` aborts; returns what stops listening. On a signal of its own that follows
 * `signal`: Node warns about more than ten listeners on one signal, and a run's retries wait on its one by the dozen.
 */
export function whenAborted(signal: AbortSignal, handler: () => void): () => void {
	const following = AbortSignal.any([signal]);
	following.addEventListener('abort', handler, { once: true });
	return () => following.removeEventListener('abort', handler);
}

interface Waiter {
	priority: boolean;
	signal?: AbortSignal;
	/** The one 'abort' listener shared by every waiter with this signal. */
	onAbort?: () => void;
	start(): void;
	abort(): void;
}

/** The requests waiting for their turn, in arrival order, continuations first; a waiter leaves when its signal fires. */
export class WaitingRequests {
	private readonly waiters: Waiter[] = [];

	get length(): number {
		return this.waiters.length;
	}

	/** `start` is called when it may go, `abort` if its signal fired first. */
	add(options: { priority: boolean; signal?: AbortSignal }, start: () => void, abort: () => void): void {
		const waiter: Waiter = { priority: options.priority, signal: options.signal, start, abort };
		if (waiter.signal) {
			const signal = waiter.signal;
			waiter.onAbort = this.waiters.find((queued) => queued.signal === signal)?.onAbort;
			if (!waiter.onAbort) {
				waiter.onAbort = () => {
					const aborted = this.waiters.filter((queued) => queued.signal === signal);
					this.waiters.splice(0, this.waiters.length, ...this.waiters.filter((queued) => queued.signal !== signal));
					for (const queued of aborted) queued.abort();
				};
				signal.addEventListener('abort', waiter.onAbort, { once: true });
			}
		}
		const firstOrdinary = waiter.priority ? this.waiters.findIndex((queued) => !queued.priority) : -1;
		if (firstOrdinary >= 0) this.waiters.splice(firstOrdinary, 0, waiter);
		else this.waiters.push(waiter);
	}

	startNext(): void {
		const waiter = this.waiters.shift();
		if (!waiter) return;
		const { signal, onAbort } = waiter;
		if (signal && onAbort && !this.waiters.some((queued) => queued.signal === signal)) signal.removeEventListener('abort', onAbort);
		waiter.start();
	}
}
