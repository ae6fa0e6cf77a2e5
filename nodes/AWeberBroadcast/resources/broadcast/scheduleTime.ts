/**
 * Turns what a user typed or picked for "Schedule For" into the ISO-8601 time with offset that AWeber's
 * schedule endpoint takes. n8n's date picker gives a wall-clock time without a zone: that is the user's
 * time in the workflow's time zone. A value that carries its own offset (or Z) means that instant.
 */
export interface ScheduleTime {
	/** `2025-03-01T09:30:00+01:00`: seconds precision, AWeber strips microseconds anyway. */
	iso: string;
	epochMs: number;
}

const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The time, or why the value is not one (the caller words the error for its field). */
export type ParsedScheduleTime = { time: ScheduleTime } | { problem: string };

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
	// Two passes find the zone's offset at that wall-clock time (the first guess may sit across a DST change).
	let offsetMinutes = offsetInZone(timeZone, wallClockAsUtc);
	offsetMinutes = offsetInZone(timeZone, wallClockAsUtc - offsetMinutes * 60_000);
	return { time: { iso: formatWithOffset(wallClockAsUtc, offsetMinutes), epochMs: wallClockAsUtc - offsetMinutes * 60_000 } };
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
