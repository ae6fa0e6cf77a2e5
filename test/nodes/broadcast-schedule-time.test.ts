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
});
