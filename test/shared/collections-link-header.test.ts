// A 2.0-beta page's next page (the link report) is its `Link` header's rel="next" (docs/aweber-behaviour.md#beta-link-report):
// the header's other shapes, beside the spellings in linkHeaderPage.test.ts (nodes/shared/collections.ts).
import { linkHeaderPage } from '../../nodes/shared/collections';

const NEXT = 'https://api.aweber.com/2.0-beta/accounts/1/broadcasts/2/links?page=2';
const PREVIOUS = 'https://api.aweber.com/2.0-beta/accounts/1/broadcasts/2/links?page=0';
const entries = [{ id: 1 }];

describe("a 2.0-beta page's Link header, in its other shapes", () => {
	it.each([
		['a list of values, one a header line', [`<${PREVIOUS}>; rel="prev"`, `<${NEXT}>; rel="next"`]],
		['values without a space after the comma', `<${PREVIOUS}>; rel="prev",<${NEXT}>; rel="next"`],
		['a value that is no link before the next page', `page 0; rel="prev", <${NEXT}>; rel="next"`],
	])('names the next page in %s', (_case, link) => {
		expect(linkHeaderPage(entries, { link })).toEqual({ entries, next_collection_link: NEXT });
	});

	it.each([
		['no Link header', {}],
		['a Link header that is no text', { link: 42 }],
		['a value that does not begin with its link', { link: `page 2 <${NEXT}>; rel="next"` }],
	])('names no next page for %s: the page is the last', (_case, headers) => {
		expect(linkHeaderPage(entries, headers)).toEqual({ entries });
	});
});
