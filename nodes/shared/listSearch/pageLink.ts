/**
 * The link a picker entry shows (the icon beside it): a page a person can open in a browser, or none. AWeber's
 * `self_link` is an API address, which a browser gets as 401 (docs/aweber-behaviour.md#web-pages-and-api-links), so only fields that
 * name a web page are offered (a sent broadcast's `archive_url`, a landing page's `published_url`), and never one
 * on the API's own origin (that of the entry's `self_link`).
 */
export function openablePage(page: unknown, selfLink: unknown): string | undefined {
	// A blank page is no URL: the parse below refuses it.
	if (typeof page !== 'string') return undefined;
	let url: URL;
	try {
		url = new URL(page);
	} catch {
		return undefined;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
	if (typeof selfLink === 'string') {
		try {
			if (new URL(selfLink).origin === url.origin) return undefined;
		} catch {
			// No API origin to compare with: the field names a web page.
		}
	}
	return url.toString();
}
