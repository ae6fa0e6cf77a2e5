import { DateTime } from 'luxon';

import { parseScheduleTime } from '../../nodes/AWeberBroadcast/resources/broadcast/scheduleTime';

describe('"Schedule For" time zone handling', () => {
	it.each([
		['winter time in Berlin', '2030-01-15T10:00:00', 'Europe/Berlin', '2030-01-15T10:00:00+01:00', '2030-01-15T09:00:00Z'],
		['summer time in Berlin', '2030-07-15T10:00', 'Europe/Berlin', '2030-07-15T10:00:00+02:00', '2030-07-15T08:00:00Z'],
		['New York, date picker value with milliseconds', '2030-03-20T08:15:30.000', 'America/New_York', '2030-03-20T08:15:30-04:00', '2030-03-20T12:15:30Z'],
		['a half-hour zone', '2030-05-01 18:00', 'Asia/Kolkata', '2030-05-01T18:00:00+05:30', '2030-05-01T12:30:00Z'],
		['UTC', '2030-05-01T18:00:00', 'UTC', '2030-05-01T18:00:00+00:00', '2030-05-01T18:00:00Z'],
		['a date alone: midnight', '2030-01-15', 'Europe/Berlin', '2030-01-15T00:00:00+01:00', '2030-01-14T23:00:00Z'],
		// Half an hour before Berlin's clocks go forward (02:00 -> 03:00, at 01:00 UTC): still winter time.
		['just before a change to summer time', '2030-03-31T01:30', 'Europe/Berlin', '2030-03-31T01:30:00+01:00', '2030-03-31T00:30:00Z'],
		['just after it', '2030-03-31T03:30', 'Europe/Berlin', '2030-03-31T03:30:00+02:00', '2030-03-31T01:30:00Z'],
	])('reads a time without a zone as wall-clock time in the workflow zone (%s)', (_case, value, zone, iso, instant) => {
		expect(parseScheduleTime(value, zone)).toEqual({ time: { iso, epochMs: Date.parse(instant) } });
	});

	it.each([
		['2030-01-15T10:00:00-05:00', '2030-01-15T10:00:00-05:00'],
		['2030-01-15T10:00:00.123456+0530', '2030-01-15T10:00:00+05:30'],
		['2030-01-15T10:00:00Z', '2030-01-15T10:00:00+00:00'],
		['2030-01-15t10:00:00z', '2030-01-15T10:00:00+00:00'],
		['2030-01-15T10:00:00-0530', '2030-01-15T10:00:00-05:30'],
	])('keeps a time that has its own offset (%s), whatever the workflow zone', (value, iso) => {
		expect(parseScheduleTime(value, 'Asia/Tokyo')).toMatchObject({ time: { iso } });
	});

	it('takes a number from an expression as epoch milliseconds, shown in the workflow zone; a number that is no time is refused', () => {
		const instant = Date.parse('2030-07-15T08:00:00Z');
		expect(parseScheduleTime(instant, 'Europe/Berlin')).toEqual({ time: { iso: '2030-07-15T10:00:00+02:00', epochMs: instant } });
		expect(parseScheduleTime(Number.NaN, 'UTC')).toEqual({ problem: expect.stringMatching(/^"NaN" is not a date and time/) });
	});

	it('reads a time with spaces around it (pasted, or joined by an expression)', () => {
		expect(parseScheduleTime(' 2030-01-15T10:00:00Z\n', 'UTC')).toMatchObject({ time: { iso: '2030-01-15T10:00:00+00:00' } });
	});

	it.each([[true], [{ day: 15 }], [['2030-01-15T10:00:00Z']], [null], [undefined]])('refuses %j from an expression as not a date and time, naming what it got', (value) => {
		expect(parseScheduleTime(value, 'UTC')).toEqual({ problem: expect.stringMatching(/^".*" is not a date and time/) });
	});

	it('takes a Date or a Luxon DateTime from an expression as that instant, shown in the workflow zone', () => {
		const instant = Date.parse('2030-07-15T08:00:00Z');
		expect(parseScheduleTime(new Date(instant), 'Europe/Berlin')).toEqual({ time: { iso: '2030-07-15T10:00:00+02:00', epochMs: instant } });
		const luxonLike = { toISO: () => '2030-07-15T10:00:00.000+02:00' };
		expect(parseScheduleTime(luxonLike, 'UTC')).toEqual({ time: { iso: '2030-07-15T10:00:00+02:00', epochMs: instant } });
	});

	it.each(['next tuesday', '2030-02-30T10:00:00', '', '15/01/2030 10:00'])('refuses "%s" as not a date and time', (value) => {
		expect(parseScheduleTime(value, 'UTC')).toEqual({ problem: expect.stringContaining('not a') });
	});

	it('says so when the workflow time zone is unknown', () => {
		expect(parseScheduleTime('2030-01-01T10:00', 'Mars/Olympus')).toEqual({ problem: 'The workflow\'s time zone "Mars/Olympus" is unknown' });
	});

	// Clock changes of 2027 (tzdata), north and south: the skipped hour when clocks go forward, the repeated hour
	// when they go back. Santiago changes at midnight, so a date alone can fall in its gap.
	it.each([
		['New York, spring', '2027-03-14T02:30', 'America/New_York', '02:30', '02:00', '03:00', '2027-03-14T03:00:00-04:00'],
		['Berlin, spring', '2027-03-28T02:30:00', 'Europe/Berlin', '02:30', '02:00', '03:00', '2027-03-28T03:00:00+02:00'],
		['Sydney, October', '2027-10-03T02:00', 'Australia/Sydney', '02:00', '02:00', '03:00', '2027-10-03T03:00:00+11:00'],
		['Auckland, September, with seconds', '2027-09-26T02:59:59', 'Pacific/Auckland', '02:59:59', '02:00', '03:00', '2027-09-26T03:00:00+13:00'],
		['Santiago, September: a date alone is midnight, which does not exist', '2027-09-05', 'America/Santiago', '00:00', '00:00', '01:00', '2027-09-05T01:00:00-03:00'],
	])('refuses a wall-clock time the zone skips, naming the gap (%s)', (_case, value, zone, time, from, to, firstAfter) => {
		expect(parseScheduleTime(value, zone)).toEqual({ gap: { date: value.slice(0, 10), time, from, to, firstAfter } });
	});

	it.each([
		['New York, just before the gap', '2027-03-14T01:59', 'America/New_York', '2027-03-14T01:59:00-05:00'],
		['New York, the first minute after it', '2027-03-14T03:00', 'America/New_York', '2027-03-14T03:00:00-04:00'],
		['Sydney, the first minute after it', '2027-10-03T03:00', 'Australia/Sydney', '2027-10-03T03:00:00+11:00'],
		['Santiago, the first minute after it', '2027-09-05T01:00', 'America/Santiago', '2027-09-05T01:00:00-03:00'],
	])('takes the times on either side of a gap as they are (%s)', (_case, value, zone, iso) => {
		expect(parseScheduleTime(value, zone)).toEqual({ time: { iso, epochMs: Date.parse(iso) } });
	});

	it.each([
		['New York, November', '2027-11-07T01:30', 'America/New_York', '2027-11-07T01:30:00-04:00'],
		['Berlin, October', '2027-10-31T02:30', 'Europe/Berlin', '2027-10-31T02:30:00+02:00'],
		['Berlin, October, the repeated hour\'s first minute', '2027-10-31T02:00', 'Europe/Berlin', '2027-10-31T02:00:00+02:00'],
		['Sydney, April', '2027-04-04T02:30', 'Australia/Sydney', '2027-04-04T02:30:00+11:00'],
		['Auckland, April', '2027-04-04T02:59:59', 'Pacific/Auckland', '2027-04-04T02:59:59+13:00'],
		['Santiago, April', '2027-04-03T23:30', 'America/Santiago', '2027-04-03T23:30:00-03:00'],
	])('reads a wall-clock time the zone shows twice as the earlier of the two, in every zone (%s)', (_case, value, zone, iso) => {
		expect(parseScheduleTime(value, zone)).toEqual({ time: { iso, epochMs: Date.parse(iso) } });
	});

	it.each([
		['New York', '2027-11-07T01:30', 'America/New_York', '-05:00'],
		['Berlin', '2027-10-31T02:30', 'Europe/Berlin', '+01:00'],
		['Sydney', '2027-04-04T02:30', 'Australia/Sydney', '+10:00'],
	])('gives the later of two repeated times when the value says its offset (%s)', (_case, value, zone, laterOffset) => {
		const later = `${value}:00${laterOffset}`;
		expect(parseScheduleTime(later, zone)).toEqual({ time: { iso: later, epochMs: Date.parse(later) } });
		const earlier = parseScheduleTime(value, zone) as { time: { epochMs: number } };
		expect(Date.parse(later) - earlier.time.epochMs).toBe(3_600_000);
	});

	// The same moment typed in the zone, and given as an expression gives it: a Luxon DateTime (in the zone, in
	// another zone, or with a fixed offset), a JS Date, ISO text with Z or an offset, epoch milliseconds.
	it.each([
		['New York', '2027-07-15T10:00', 'America/New_York'],
		['Berlin', '2027-12-24T18:00', 'Europe/Berlin'],
		['Sydney', '2027-07-15T10:00', 'Australia/Sydney'],
		['Sydney, summer', '2027-12-24T18:00', 'Australia/Sydney'],
		['Santiago', '2027-07-15T10:00', 'America/Santiago'],
		['Auckland, just after the gap', '2027-09-26T03:00', 'Pacific/Auckland'],
	])('a typed time and the same moment from an expression give the same instant (%s)', (_case, typed, zone) => {
		const expected = parseScheduleTime(typed, zone);
		expect(expected).toMatchObject({ time: { iso: expect.stringMatching(new RegExp(`^${typed}:00[+-]\\d{2}:\\d{2}$`)) } });
		const inZone = DateTime.fromISO(typed, { zone });
		const sameMoments: unknown[] = [
			inZone,
			DateTime.fromObject({ year: inZone.year, month: inZone.month, day: inZone.day, hour: inZone.hour }, { zone }),
			inZone.setZone('Asia/Tokyo'),
			inZone.setZone('UTC'),
			inZone.toUTC().setZone(`UTC${inZone.toFormat('ZZ')}`),
			inZone.toJSDate(),
			inZone.toISO(),
			inZone.toUTC().toISO(),
			inZone.toMillis(),
		];
		// The instant is what AWeber schedules; a value with its own offset keeps it in the text sent.
		const instant = (expected as { time: { epochMs: number } }).time.epochMs;
		for (const moment of sameMoments) expect(parseScheduleTime(moment, zone)).toMatchObject({ time: { epochMs: instant } });
	});

	it('takes a DateTime that Luxon moved past a gap as the instant it is (Luxon moves forward; the typed time is refused)', () => {
		const moved = DateTime.fromISO('2027-03-14T02:30', { zone: 'America/New_York' });
		expect(parseScheduleTime(moved, 'America/New_York')).toMatchObject({ time: { iso: '2027-03-14T03:30:00-04:00' } });
		expect(parseScheduleTime('2027-03-14T02:30', 'America/New_York')).toHaveProperty('gap');
	});

	it('names a skipped time in the gap as given, with its seconds when they are not zero', () => {
		const gap = { date: '2031-03-09', from: '02:00', to: '03:00', firstAfter: '2031-03-09T03:00:00-04:00' };
		expect(parseScheduleTime('2031-03-09T02:00:30', 'America/New_York')).toEqual({ gap: { ...gap, time: '02:00:30' } });
		expect(parseScheduleTime('2031-03-09T02:30:00', 'America/New_York')).toEqual({ gap: { ...gap, time: '02:30' } });
	});
});
