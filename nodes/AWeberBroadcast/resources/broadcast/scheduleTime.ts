/**
 * Turns what a user typed or picked for "Schedule For" into the ISO-8601 time with offset that AWeber's
 * schedule endpoint takes, by these rules (the field's description states them to users):
 * - a time without a zone (what n8n's date picker gives) is a wall-clock time in the workflow's time zone;
 * - a wall-clock time the zone skips (clocks going forward) is refused, naming the gap: no silent hour off;
 * - a wall-clock time the zone shows twice (clocks going back) is its earlier occurrence, in every zone;
 * - a value that is already an instant (ISO text with an offset or Z, a JS Date, a Luxon DateTime, epoch
 *   milliseconds) is that instant, whatever the workflow's zone.
 */
export interface ScheduleTime {
	/** `2025-03-01T09:30:00+01:00`: seconds precision, AWeber strips microseconds anyway. */
	iso: string;
	epochMs: number;
}

const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** A wall-clock time the zone skips: `date` and `time` as given; clocks go from `from` to `to` (HH:MM) that day. */
export interface ScheduleGap {
	date: string;
	time: string;
	from: string;
	to: string;
	/** The first time after the gap, with its offset: what a user who meant "as soon as the clocks change" can give. */
	firstAfter: string;
}

/** The time, why the value is not one, or the gap it falls in (the caller words the error for its field). */
export type ParsedScheduleTime = { time: ScheduleTime } | { problem: string } | { gap: ScheduleGap };

export function parseScheduleTime(value: unknown, timeZone: string): ParsedScheduleTime {
	if (!isKnownTimeZone(timeZone)) return { problem: `The workflow's time zone "${timeZone}" is unknown` };
	if (value instanceof Date) return { time: atInstant(value.getTime(), timeZone) };
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		value = (value as { toISO: () => string }).toISO();
	}
	if (typeof value === 'number' && Number.isFinite(value)) return { time: atInstant(value, timeZone) };
	const text = typeof value === 'string' ? value.trim() : '';
	const match = DATE_TIME.exec(text);
	if (!match) {
		return { problem: `"${String(value)}" is not a date and time (expected e.g. 2025-03-01T09:30 or 2025-03-01T09:30:00+01:00)` };
	}
	const [, year, month, day, hour = '00', minute = '00', second = '00', zone] = match;
	const wallClockAsUtc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
	if (!isRealDate(wallClockAsUtc, Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second))) {
		return { problem: `"${text}" is not a valid date and time` };
	}
	if (zone) {
		const offsetMinutes = zoneOffsetMinutes(zone);
		return { time: { iso: formatWithOffset(wallClockAsUtc, offsetMinutes), epochMs: wallClockAsUtc - offsetMinutes * 60_000 } };
	}
	return atWallClock(wallClockAsUtc, timeZone);
}

/** A day either side covers any one offset change; zones do not change their offset twice within two days. */
const DAY_MS = 86_400_000;

/**
 * The instants at which the zone's clocks show this wall-clock time: one, two (the repeated hour: the earlier is
 * taken) or none (the skipped hour: refused). Each offset the zone has around that day is tried.
 */
function atWallClock(wallClockAsUtc: number, timeZone: string): ParsedScheduleTime {
	const before = offsetInZone(timeZone, wallClockAsUtc - DAY_MS);
	const after = offsetInZone(timeZone, wallClockAsUtc + DAY_MS);
	const instants = [before, after]
		.filter((offset) => offsetInZone(timeZone, wallClockAsUtc - offset * 60_000) === offset)
		.map((offset) => wallClockAsUtc - offset * 60_000);
	if (instants.length === 0) return { gap: describeGap(wallClockAsUtc, timeZone, before, after) };
	return { time: atInstant(Math.min(...instants), timeZone) };
}

/**
 * The skipped hour around a wall-clock time: the instant the offset changes lies between the time read with the
 * later offset and with the earlier one; halving finds it to the second.
 */
function describeGap(wallClockAsUtc: number, timeZone: string, before: number, after: number): ScheduleGap {
	let low = wallClockAsUtc - after * 60_000;
	let high = wallClockAsUtc - before * 60_000;
	while (high - low > 1000) {
		const middle = low + Math.floor((high - low) / 2000) * 1000;
		if (offsetInZone(timeZone, middle) === before) low = middle;
		else high = middle;
	}
	const clock = (utc: number) => new Date(utc).toISOString().slice(11, 16);
	const text = new Date(wallClockAsUtc).toISOString();
	return {
		date: text.slice(0, 10),
		time: text.slice(11, 19).replace(/:00$/, ''),
		from: clock(high + before * 60_000),
		to: clock(high + after * 60_000),
		firstAfter: formatWithOffset(high + after * 60_000, after),
	};
}

function atInstant(epochMs: number, timeZone: string): ScheduleTime {
	const seconds = Math.floor(epochMs / 1000) * 1000;
	const offsetMinutes = offsetInZone(timeZone, seconds);
	return { iso: formatWithOffset(seconds + offsetMinutes * 60_000, offsetMinutes), epochMs: seconds };
}

function isKnownTimeZone(timeZone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		return true;
	} catch {
		return false;
	}
}

function isRealDate(utc: number, ...parts: number[]): boolean {
	const date = new Date(utc);
	const actual = [
		date.getUTCFullYear(),
		date.getUTCMonth() + 1,
		date.getUTCDate(),
		date.getUTCHours(),
		date.getUTCMinutes(),
		date.getUTCSeconds(),
	];
	return actual.every((value, index) => value === parts[index]);
}

/** `Z` (no digits) is 0; `+05`, `+0530` and `-05:30` are what they say. */
function zoneOffsetMinutes(zone: string): number {
	const digits = zone.slice(1).replace(':', '');
	const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
	return zone.startsWith('-') ? -minutes : minutes;
}

/** Minutes the zone is ahead of UTC at that instant (Intl knows the zone rules; no date library needed). */
function offsetInZone(timeZone: string, epochMs: number): number {
	const format = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	});
	const parts = Object.fromEntries(format.formatToParts(new Date(epochMs)).map((part) => [part.type, part.value]));
	const wallClock = Date.UTC(
		Number(parts.year),
		Number(parts.month) - 1,
		Number(parts.day),
		Number(parts.hour),
		Number(parts.minute),
		Number(parts.second),
	);
	return Math.round((wallClock - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

function formatWithOffset(wallClockAsUtc: number, offsetMinutes: number): string {
	const sign = offsetMinutes < 0 ? '-' : '+';
	const absolute = Math.abs(offsetMinutes);
	const offset = `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
	return `${new Date(wallClockAsUtc).toISOString().slice(0, 19)}${offset}`;
}

function pad(value: number): string {
	return String(value).padStart(2, '0');
}
