/*
 * Learning this process's share of an AWeber account other apps and processes use too: measure after the lockout
 * that showed other traffic, settle, hold, rise back (docs/rate-limits.md#sharing-the-account; what it relies on:
 * docs/aweber-behaviour.md#rate-limit). Reading the share never changes it: its changes are worked out from the time.
 */
import { AWEBER_REQUESTS_PER_MINUTE } from './constants';

/**
 * While measuring, a process paces to drain its waiting requests in this many windows. Four: two or three processes
 * with hundreds of adds each then pace near the limit together, so AWeber refuses within the first window after the
 * lockout (a short measurement), while each pace still follows its own work (bench/RESULTS.md, section 4).
 */
export const MEASURE_DRAIN_WINDOWS = 4;

/**
 * The shortest hold of a learned share, in windows: the others measured alike drain their work in MEASURE_DRAIN_WINDOWS
 * windows at most once the measurement's lockout (one window) has passed. Derived, not tuned.
 */
export const SHARE_HOLD_WINDOWS = MEASURE_DRAIN_WINDOWS + 1;

/**
 * What a learned share leaves unused, in requests per window: the smallest step, for the timing AWeber and this
 * process see differently. It also bounds what probing for more may cost the account: see MAX_SHARE_HOLD_WINDOWS.
 */
const SLACK = 1;

/**
 * The longest hold, in windows: each raise that meets a refusal doubles the hold, so a long run beside steady traffic
 * costs the account a lockout ever more rarely. A failed raise blocks the whole account for a window (AWeber's 120
 * requests); the hold stops doubling once that, spread over the hold, costs the account no more per window than the
 * SLACK a settled share leaves unused anyway. Derived, not tuned: 120 windows, so the share still comes back to the
 * limit within about two hours after the others stop.
 */
export const MAX_SHARE_HOLD_WINDOWS = AWEBER_REQUESTS_PER_MINUTE / SLACK;

/**
 * A measurement that gave this process more than this part of the account met steady traffic (another app that keeps
 * its rate) rather than n8n processes measuring alike: two alike processes split about evenly, and one beside an app
 * at 40 per minute gets about 85 of 120. Two thirds lies between, with room for alike processes' uneven work.
 */
const STEADY_TRAFFIC_PART = 2 / 3;

/** Requests per window while measuring, for `waiting` requests queued (at least a window's worth, so a short queue does not crawl). */
export function measuringPace(waiting: number, ceiling: number): number {
	return Math.min(ceiling, Math.max(waiting, ceiling) / MEASURE_DRAIN_WINDOWS);
}

/**
 * The share settled by the measurement's refusal (undefined: this process alone filled the limit). Past
 * STEADY_TRAFFIC_PART the rest is steady traffic at `(ceiling - sent) / measuredWindows`, and this process takes what it leaves.
 */
export function measuredShare(sentInWindow: number, ceiling: number, measuredWindows = 1): number | undefined {
	const steady = sentInWindow > ceiling * STEADY_TRAFFIC_PART;
	return shareAfterRefusal(steady ? Math.min(sentInWindow, ceiling - (ceiling - sentInWindow) / Math.min(1, measuredWindows)) : sentInWindow, ceiling);
}

/** The share after a refusal while settled, given what this process had sent in AWeber's window; undefined when it alone filled the limit. */
export function shareAfterRefusal(sentInWindow: number, ceiling: number): number | undefined {
	if (sentInWindow >= ceiling) return undefined;
	return Math.max(1, Math.floor(sentInWindow) - SLACK);
}

/** The share `quietMs` after it was lowered to `lowered` with no refusal since, held for `holdWindows` first. */
export function shareAfterQuiet(lowered: number, quietMs: number, windowMs: number, ceiling: number, holdWindows = SHARE_HOLD_WINDOWS): number {
	const rising = Math.floor(quietMs / windowMs) - holdWindows;
	if (rising <= 0) return Math.min(lowered, ceiling);
	return Math.min(ceiling, lowered + 2 ** Math.min(rising, 30) - 1);
}

/** The credential's full limit; measuring after a lockout that showed other traffic; or settled below the limit. */
export type ShareState = 'full' | 'measuring' | 'settled';

/** What the learning reads from its limiter. */
interface PacingView {
	now(): number;
	settings(): { requests: number; windowMs: number };
	/** How long a request counts after its answer. */
	countedMs(): number;
	/** When the lockout being waited out ends (in the past when none is). */
	lockedUntil(): number;
}

type Phase =
	| { state: 'full' }
	| { state: 'measuring'; pace: number; nextAt: number; firstStartAt?: number }
	| { state: 'settled'; share: number; at: number; holdWindows: number };

export class ShareLearning {
	private phase: Phase = { state: 'full' };

	/** The share went below the limit, and the user was not yet told it came back. */
	private lowered = false;

	constructor(private readonly pacing: PacingView) {}

	state(): ShareState {
		return this.current().state;
	}

	share(): number {
		const phase = this.current();
		const ceiling = this.pacing.settings().requests;
		if (phase.state !== 'settled') return ceiling;
		return shareAfterQuiet(phase.share, this.pacing.now() - phase.at, this.pacing.settings().windowMs, ceiling, phase.holdWindows);
	}

	/** The measurement's pace (requests per window), and when its next request may start. */
	measuring(): { pace: number; nextAt: number } | undefined {
		const phase = this.current();
		return phase.state === 'measuring' ? { pace: phase.pace, nextAt: phase.nextAt } : undefined;
	}

	/** How long the measurement under way has lasted, in windows, from its first request. */
	measuredWindows(): number | undefined {
		const phase = this.current();
		if (phase.state !== 'measuring' || phase.firstStartAt === undefined) return undefined;
		return (this.pacing.now() - phase.firstStartAt) / this.pacing.settings().windowMs;
	}

	measure(): void {
		this.phase = { state: 'measuring', nextAt: 0, pace: this.pacing.settings().requests };
		this.lowered = true;
	}

	/** A request started with `waiting` others still queued: while measuring, pace the next on the work left. */
	started(waiting: number): void {
		this.phase = this.current();
		if (this.phase.state !== 'measuring') return;
		const now = this.pacing.now();
		this.phase.firstStartAt ??= now;
		this.phase.pace = measuringPace(waiting + 1, this.pacing.settings().requests);
		this.phase.nextAt = now + this.pacing.countedMs() / this.phase.pace;
	}

	/** Settles the share at `to` (the measurement's result, or lower after a refusal, never higher); returns it. */
	lower(to: number): number {
		const phase = this.current();
		const now = this.pacing.now();
		const { requests: ceiling, windowMs } = this.pacing.settings();
		const wanted = Math.max(1, Math.floor(to));
		this.lowered = true;
		if (phase.state === 'measuring') {
			// Hold until the others, measured alike, are done: MEASURE_DRAIN_WINDOWS / (the measurement's length) windows after
			// the lockout. Longer than MEASURE_DRAIN_WINDOWS shortest holds says they did not measure alike (this process
			// met the lockout late), so its share says little and soon rises.
			const measured = phase.firstStartAt === undefined ? 0 : (now - phase.firstStartAt) / windowMs;
			const othersDoneIn = 1 + Math.ceil(MEASURE_DRAIN_WINDOWS / measured);
			const holdWindows = othersDoneIn > SHARE_HOLD_WINDOWS * MEASURE_DRAIN_WINDOWS ? SHARE_HOLD_WINDOWS : Math.max(SHARE_HOLD_WINDOWS, othersDoneIn);
			const settled = Math.min(ceiling, wanted);
			// At the ceiling (a limit of one request per window) it reads as full: see current().
			this.phase = { state: 'settled', share: settled, at: now, holdWindows };
			return settled;
		}
		const share = Math.min(this.share(), wanted);
		// Still lowered: the last raise went too far, so wait longer before the next one.
		const holdWindows = phase.state === 'settled' ? Math.min(MAX_SHARE_HOLD_WINDOWS, Math.max(SHARE_HOLD_WINDOWS, phase.holdWindows * 2)) : SHARE_HOLD_WINDOWS;
		this.phase = { state: 'settled', share, at: now, holdWindows };
		return share;
	}

	/** The full limit once the share came back to it, reported once. */
	takeRecoveredShare(): number | undefined {
		if (!this.lowered || this.state() !== 'full') return undefined;
		this.lowered = false;
		return this.pacing.settings().requests;
	}

	/** The phase now: a measurement quiet for a window after its lockout settles at its pace; a share back at the limit is full. */
	private current(): Phase {
		const { phase, pacing } = this;
		const now = pacing.now();
		const ceiling = pacing.settings().requests;
		if (phase.state === 'measuring') {
			const quietAt = pacing.lockedUntil() + pacing.countedMs();
			if (now < quietAt) return phase;
			const pace = Math.floor(phase.pace);
			return pace < ceiling ? { state: 'settled', share: pace, at: quietAt, holdWindows: 0 } : { state: 'full' };
		}
		if (phase.state === 'settled' && shareAfterQuiet(phase.share, now - phase.at, pacing.settings().windowMs, ceiling, phase.holdWindows) >= ceiling) {
			return { state: 'full' };
		}
		return phase;
	}
}
