// The queue of requests waiting for the rate limit (nodes/shared/rateLimiter.ts): a signal that fires takes out
// its own waiters only (a failed run, a cancelled execution), and the others of the credential keep their turn.
import { WaitingRequests } from '../../nodes/shared/rateLimiter';

describe('Requests waiting for their turn', () => {
	it('a fired signal aborts its own waiters only; the others start in their order', () => {
		const queue = new WaitingRequests();
		const [failedRun, otherRun] = [new AbortController(), new AbortController()];
		const events: string[] = [];
		const add = (name: string, signal?: AbortSignal) =>
			queue.add({ priority: false, signal }, () => events.push(`${name} started`), () => events.push(`${name} aborted`));
		add('a1', failedRun.signal);
		add('b', otherRun.signal);
		add('a2', failedRun.signal);
		add('c');

		failedRun.abort();
		expect(events).toEqual(['a1 aborted', 'a2 aborted']);
		expect(queue.length).toBe(2);

		queue.startNext();
		queue.startNext();
		queue.startNext();
		expect(events).toEqual(['a1 aborted', 'a2 aborted', 'b started', 'c started']);
	});

	it('a signal still aborts the waiters of its run that have not started after others of that run started', () => {
		const queue = new WaitingRequests();
		const [run, otherRun] = [new AbortController(), new AbortController()];
		const events: string[] = [];
		const add = (name: string, signal: AbortSignal) =>
			queue.add({ priority: false, signal }, () => events.push(`${name} started`), () => events.push(`${name} aborted`));
		add('a1', run.signal);
		add('b', otherRun.signal);
		add('a2', run.signal);
		add('a3', run.signal);

		// a1 starts with the other run's b behind it, then a2 with only a3 of its run behind it.
		queue.startNext();
		queue.startNext();
		queue.startNext();
		run.abort();
		expect(events).toEqual(['a1 started', 'b started', 'a2 started', 'a3 aborted']);
		expect(queue.length).toBe(0);
	});
});
