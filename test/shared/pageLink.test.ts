// The link a picker entry shows beside a broadcast or landing page: a web page a person can open, never an address on
// AWeber's API (a browser gets it as 401), never something that is no web address.
import { openablePage } from '../../nodes/shared/listSearch/pageLink';

const SELF = 'https://api.aweber.com/1.0/accounts/1/lists/2/broadcasts/3';

describe('openablePage: the link a picker entry shows', () => {
	it.each([
		['an https page', 'https://archive.aweber.com/newsletter/x', 'https://archive.aweber.com/newsletter/x'],
		['an http page', 'http://pages.example.com/spring', 'http://pages.example.com/spring'],
	])('shows %s', (_case, page, shown) => {
		expect(openablePage(page, SELF)).toBe(shown);
	});

	it.each([
		['a page on the API origin', 'https://api.aweber.com/1.0/accounts/1'],
		['an ftp address', 'ftp://files.example.com/a'],
		['a javascript: address', 'javascript:alert(1)'],
		['a blank value', '   '],
		['an array holding an address', ['https://archive.aweber.com/a']],
		['no value', null],
	])('shows nothing for %s', (_case, page) => {
		expect(openablePage(page, SELF)).toBeUndefined();
	});

	it('shows the page when the entry has no API link to compare with, or an unreadable one', () => {
		expect(openablePage('https://api.aweber.com/page', undefined)).toBe('https://api.aweber.com/page');
		expect(openablePage('https://api.aweber.com/page', 'not a link')).toBe('https://api.aweber.com/page');
	});
});
