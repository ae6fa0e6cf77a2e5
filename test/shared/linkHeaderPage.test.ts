// AWeber's 2.0-beta collections (the link report) are bare arrays whose next page is the RFC 8288 `Link` header's
// rel="next" (docs/aweber-behaviour.md#beta-link-report). Return All reads the page that header names, and no other:
// these are the header's spellings the RFC allows, and look-alikes that name no next page.
import { linkHeaderPage } from '../../nodes/shared/collections';

const NEXT = 'https://api.aweber.com/2.0-beta/accounts/1/broadcasts/2/links?page=2';
const entries = [{ id: 1 }];

function nextOf(link: string): string | undefined {
	return linkHeaderPage(entries, { link })?.next_collection_link;
}

describe("a 2.0-beta page's next page, from its Link header", () => {
	it.each([
		['quoted', `<${NEXT}>; rel="next"`],
		['unquoted', `<${NEXT}>; rel=next`],
		['without a space after the semicolon', `<${NEXT}>;rel=next`],
		['with several spaces after the semicolon', `<${NEXT}>;   rel="next"`],
		['with spaces around the equals sign', `<${NEXT}>; rel = next`],
		['with a space before the quote', `<${NEXT}>; rel= "next"`],
		['among other relations, last', `<${NEXT}>; rel="prev next"`],
		['among other relations, first', `<${NEXT}>; rel="next last"`],
		['before another parameter', `<${NEXT}>; rel="next" ; title="page 2"`],
		['in capitals', `<${NEXT}>; REL="NEXT"`],
		['after a previous link', `<https://api.aweber.com/2.0-beta/x?page=0>; rel="prev", <${NEXT}>; rel="next"`],
	])('is read when rel="next" is written %s', (_case, header) => {
		expect(nextOf(header)).toBe(NEXT);
	});

	it.each([
		['a relation that only starts with next', `<${NEXT}>; rel="nextpage"`],
		['a relation that only ends with next', `<${NEXT}>; rel="notnext"`],
		['a previous page only', `<${NEXT}>; rel="prev"`],
		['no relation', `<${NEXT}>`],
	])('is none for %s: the read ends with this page', (_case, header) => {
		expect(nextOf(header)).toBeUndefined();
	});

	it('keeps the page entries as they came', () => {
		expect(linkHeaderPage(entries, { link: `<${NEXT}>; rel="next"` })).toEqual({ entries, next_collection_link: NEXT });
		expect(linkHeaderPage({ entries }, { link: `<${NEXT}>; rel="next"` })).toBeUndefined();
	});
});
