/*
 * The requests of one credential waiting for their turn under its rate limit (rateLimiter.ts), with turns shared
 * between executions (docs/rate-limits.md#turns-between-executions): start-time fair queuing with equal weights. Each
 * execution with requests waiting holds a tag, the turn it is due at; the next turn goes to the smallest tag (on a
 * tie, to the one with fewer requests waiting), and a served execution's next tag is one more. An execution that joins is due at the
 * turn being handed out now, so it goes next; one that comes back soon after its last turn (a sign-up's read-back,
 * an item's next request) keeps the tag its last turn gave it, so coming and going wins it nothing over the others.
 * Within one execution the requests keep today's order: arrival order, work already started (a follow-up, a retry)
 * ahead of its later items.
 */

/** How the queue hands out turns: `fair` between executions, or `first-come` across all (the benchmark's baseline). */
export type TurnOrder = 'fair' | 'first-come';

/** The key of requests that belong to no execution (a poll, a search in the editor): they share turns as one. */
export const NO_EXECUTION = '';

export interface WaiterOptions {
	priority: boolean;
	signal?: AbortSignal;
	/** The execution the request belongs to (n8n's execution ID). */
	execution?: string;
}

interface Waiter {
	priority: boolean;
	signal?: AbortSignal;
	start(): void;
	abort(): void;
}

interface ExecutionQueue {
	waiters: Waiter[];
	/** The turn it is due at. */
	tag: number;
	/** When the tag was given, to break ties: the one waiting longer goes first. */
	since: number;
}

export class WaitingRequests {
	private readonly executions = new Map<string, ExecutionQueue>();
	/** Served executions with nothing waiting, and the tag their next request gets (only while it is ahead of `turn`). */
	private readonly nextTags = new Map<string, number>();
	/** The one 'abort' listener per signal, shared by its waiters (a run's items all wait on one), and how many wait on it. */
	private readonly listeners = new Map<AbortSignal, { onAbort: () => void; waiting: number }>();
	/** The tag of the last turn handed out. */
	private turn = 0;
	private tagsGiven = 0;
	private count = 0;

	constructor(private readonly order: TurnOrder = 'fair') {}

	get length(): number {
		return this.count;
	}

	/** `start` is called when it may go, `abort` if its signal fired first. */
	add(options: WaiterOptions, start: () => void, abort: () => void): void {
		const waiter: Waiter = { priority: options.priority, signal: options.signal, start, abort };
		if (waiter.signal) this.listen(waiter.signal);
		const key = this.order === 'fair' ? (options.execution ?? NO_EXECUTION) : NO_EXECUTION;
		let queue = this.executions.get(key);
		if (!queue) {
			queue = { waiters: [], tag: Math.max(this.turn, this.nextTags.get(key) ?? this.turn), since: this.tagsGiven++ };
			this.nextTags.delete(key);
			this.executions.set(key, queue);
		}
		const firstOrdinary = waiter.priority ? queue.waiters.findIndex((queued) => !queued.priority) : -1;
		if (firstOrdinary >= 0) queue.waiters.splice(firstOrdinary, 0, waiter);
		else queue.waiters.push(waiter);
		this.count++;
	}

	startNext(): void {
		let next: [string, ExecutionQueue] | undefined;
		for (const entry of this.executions) {
			const [, queue] = entry;
			if (!next || queue.tag < next[1].tag || (queue.tag === next[1].tag && isAheadOnTie(queue, next[1]))) next = entry;
		}
		if (!next) return;
		const [key, queue] = next;
		const waiter = queue.waiters.shift()!;
		this.count--;
		this.turn = queue.tag;
		queue.tag++;
		queue.since = this.tagsGiven++;
		if (queue.waiters.length === 0) {
			this.executions.delete(key);
			this.nextTags.set(key, queue.tag);
		}
		// Executions due no later than the turn now would join at it anyway: forgotten, so the map stays small.
		for (const [other, tag] of this.nextTags) if (tag <= this.turn) this.nextTags.delete(other);
		if (waiter.signal) this.stopListening(waiter.signal);
		waiter.start();
	}

	private listen(signal: AbortSignal): void {
		const listener = this.listeners.get(signal);
		if (listener) {
			listener.waiting++;
			return;
		}
		const onAbort = () => {
			this.listeners.delete(signal);
			const aborted: Waiter[] = [];
			for (const [key, queue] of this.executions) {
				const kept = queue.waiters.filter((queued) => queued.signal !== signal);
				aborted.push(...queue.waiters.filter((queued) => queued.signal === signal));
				queue.waiters = kept;
				if (kept.length === 0) {
					this.executions.delete(key);
					this.nextTags.set(key, queue.tag);
				}
			}
			this.count -= aborted.length;
			for (const queued of aborted) queued.abort();
		};
		this.listeners.set(signal, { onAbort, waiting: 1 });
		signal.addEventListener('abort', onAbort, { once: true });
	}

	private stopListening(signal: AbortSignal): void {
		const listener = this.listeners.get(signal);
		if (!listener || --listener.waiting > 0) return;
		this.listeners.delete(signal);
		signal.removeEventListener('abort', listener.onAbort);
	}
}

/**
 * Of two executions due at the same turn, the one with fewer requests waiting goes first (a sign-up's read-back before
 * the next of a bulk's hundreds: each still gets one turn per round), then the one waiting longer.
 */
function isAheadOnTie(queue: ExecutionQueue, other: ExecutionQueue): boolean {
	if (queue.waiters.length !== other.waiters.length) return queue.waiters.length < other.waiters.length;
	return queue.since < other.since;
}
