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

describe('Turns shared between executions', () => {
	/** A queue whose waiters note their name when they start. */
	function queueOf(order?: 'fair' | 'first-come') {
		// No order given: the default, fair turns.
		const queue = new WaitingRequests(order);
		const started: string[] = [];
		const add = (name: string, execution: string, priority = false) =>
			queue.add({ priority, execution }, () => started.push(name), () => started.push(`${name} aborted`));
		const turns = (count: number) => {
			for (let turn = 0; turn < count; turn++) queue.startNext();
			return started;
		};
		return { queue, add, turns, started };
	}

	it('gives an execution that joins a busy queue the next turn, then alternates, each keeping its own order', () => {
		const { add, turns } = queueOf();
		for (let item = 1; item <= 6; item++) add(`bulk ${item}`, 'bulk');
		turns(2);
		add('sign-up', 'webhook');
		expect(turns(1)).toEqual(['bulk 1', 'bulk 2', 'sign-up']);
		// The sign-up's read-back, a follow-up of work started, and a second bulk that joins later.
		add('sign-up read-back', 'webhook', true);
		add('other 1', 'other');
		add('other 2', 'other');
		// The execution that just joined goes first again; then one turn each in the round, the fewest waiting first.
		expect(turns(7).slice(3)).toEqual(['other 1', 'sign-up read-back', 'other 2', 'bulk 3', 'bulk 4', 'bulk 5', 'bulk 6']);
	});

	it('puts a started item\'s follow-up ahead of its own execution\'s later items only', () => {
		const { add, turns } = queueOf();
		add('a1', 'a');
		add('a2', 'a');
		add('b1', 'b');
		add('b2', 'b');
		turns(1);
		add('a1 read-back', 'a', true);
		// b is due first (a had its turn), then a round of one each: b's last, then a's follow-up before a2.
		expect(turns(4)).toEqual(['a1', 'b1', 'b2', 'a1 read-back', 'a2']);
	});

	it('gives an execution that comes back right after its turn no turn ahead of one that kept waiting', () => {
		const { add, turns, queue } = queueOf();
		// Two executions that each have one request waiting at a time (items one after the other): each comes back while
		// the other waits, and they alternate rather than the latest to come back going first.
		add('a1', 'a');
		add('b1', 'b');
		turns(1);
		add('a2', 'a');
		turns(1);
		add('b2', 'b');
		turns(1);
		add('a3', 'a');
		expect(turns(queue.length)).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
	});

	it('first-come (the benchmark\'s baseline): in order of arrival whatever the execution, follow-ups first', () => {
		const { add, turns } = queueOf('first-come');
		for (let item = 1; item <= 3; item++) add(`bulk ${item}`, 'bulk');
		turns(1);
		add('sign-up', 'webhook');
		add('bulk 1 read-back', 'bulk', true);
		expect(turns(4)).toEqual(['bulk 1', 'bulk 1 read-back', 'bulk 2', 'bulk 3', 'sign-up']);
	});

	it('a cancelled execution leaves the rotation; the others go on in turn', () => {
		const { add, turns, queue } = queueOf();
		const cancelled = new AbortController();
		queue.add({ priority: false, execution: 'c', signal: cancelled.signal }, () => undefined, () => undefined);
		queue.add({ priority: false, execution: 'c', signal: cancelled.signal }, () => undefined, () => undefined);
		add('a1', 'a');
		add('a2', 'a');
		add('b1', 'b');
		cancelled.abort();
		expect(queue.length).toBe(3);
		expect(turns(3)).toEqual(['b1', 'a1', 'a2']);
	});

	it('on a tie, the execution with fewer requests waiting goes first, wherever it stands in the queue', () => {
		const one = queueOf();
		one.add('a1', 'a');
		for (let item = 1; item <= 3; item++) one.add(`b${item}`, 'b');
		expect(one.turns(4)).toEqual(['a1', 'b1', 'b2', 'b3']);
		const other = queueOf();
		for (let item = 1; item <= 4; item++) other.add(`a${item}`, 'a');
		other.add('b1', 'b');
		other.turns(1);
		// b comes back due one turn later than a: a goes first however many it has waiting, then b again on the tie.
		other.add('b2', 'b');
		expect(other.turns(5)).toEqual(['b1', 'a1', 'b2', 'a2', 'a3', 'a4']);
	});

	it('on a tie with as many waiting, the execution waiting longer goes first', () => {
		const even = queueOf();
		even.add('a1', 'a');
		even.add('a2', 'a');
		even.add('b1', 'b');
		even.add('b2', 'b');
		expect(even.turns(4)).toEqual(['a1', 'b1', 'a2', 'b2']);
		// x had its turn after y came back: y has waited longer on each tie, though x joined the queue first.
		const back = queueOf();
		for (let item = 1; item <= 3; item++) back.add(`x${item}`, 'x');
		back.add('y1', 'y');
		back.turns(1);
		back.add('y2', 'y');
		back.add('y3', 'y');
		expect(back.turns(5)).toEqual(['y1', 'x1', 'y2', 'x2', 'y3', 'x3']);
	});
});
