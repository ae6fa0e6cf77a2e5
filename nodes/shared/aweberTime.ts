const AWEBER_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Epoch milliseconds of an AWeber timestamp, or undefined. AWeber writes them inconsistently:
 * `2015-10-13T16:19:20-04:00`, `2017-11-15 10:46:07.926074-05:00` (space, microseconds), and a few
 * without a zone (taken as UTC).
 */
export function parseAweberTime(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	const match = AWEBER_TIME.exec(value.trim());
	if (match === null) return undefined;
	const [, date, time, fraction, zone] = match;
	const milliseconds = fraction === undefined ? '' : fraction.slice(0, 4).padEnd(4, '0');
	const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
	const parsed = Date.parse(`${date}T${time}${milliseconds}${offset}`);
	return Number.isNaN(parsed) ? undefined : parsed;
}
