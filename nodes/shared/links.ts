/*
 * What an AWeber API link says about the resource it points at (`…/1.0/accounts/{a}/lists/{l}/subscribers/{s}`).
 */

/** An ID out of a link: a number, or the text when it does not fit a JavaScript number (docs/aweber-behaviour.md#ids). */
function idOf(text: string): number | string {
	const id = Number(text);
	return Number.isSafeInteger(id) ? id : text;
}

const LIST_IN_LINK = /\/lists\/(\d+)(?=[/?#]|$)/;

/** The list ID in a link, as written in it. */
export function listIdFromLink(link: unknown): string | undefined {
	return typeof link === 'string' ? LIST_IN_LINK.exec(link)?.[1] : undefined;
}

/** The list a link lives under: its ID and link; empty when there is none. */
export function listOfLink(link: unknown): { list_id?: number | string; list_link?: string } {
	const match = typeof link === 'string' ? LIST_IN_LINK.exec(link) : null;
	return match ? { list_id: idOf(match[1]), list_link: (link as string).slice(0, match.index + match[0].length) } : {};
}

/** The ID a link ends with (`…/subscribers/{id}`, query left out). */
export function idOfLink(link: string, segment: string): number | string | undefined {
	const match = new RegExp(`/${segment}/([^/?#]+)`).exec(link);
	return match ? idOf(match[1]) : undefined;
}

/**
 * The buyer of a purchase: AWeber's `Location` for it is the subscriber's activity (the subscriber link plus a
 * query, docs/aweber-behaviour.md#status-codes).
 */
export function buyerLinkOfPurchase(location: string): string {
	return location.split('?')[0];
}
