import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The one origin check, made by sendWithPolicies.ts before anything is sent: a link handed to the package may only
 * point under the credential's API base URL, or the token would go to whoever wrote it (docs/architecture.md).
 * `source` names where such a link came from; a URL without one is the package's own, built from the API Base URL and
 * a checked path (pathParameters.ts), so it is refused only when the credential's API Base URL is no usable base.
 */
export function assertUnderApiBase(node: INode, url: string, apiBaseUrl: string, source: string | undefined, itemIndex?: number): void {
	if (isUnderApiBase(url, apiBaseUrl)) return;
	// A user name and password written into the field are the user's secret: errors show where they were, not them.
	const shownBase = apiBaseUrl.replace(/\/\/[^/?#]*@/, '//…@');
	if (source === undefined) {
		throw new NodeOperationError(node, `The credential's API Base URL "${shownBase}" cannot be used`, {
			description:
				"Set it to AWeber's https://api.aweber.com, or to a sandbox's or proxy's whole http(s) URL without a user name, password, query or fragment. " +
				'The request was not sent.',
			itemIndex,
		});
	}
	throw new NodeOperationError(node, `Refused to send the AWeber credential to ${describeOrigin(url)}`, {
		description:
			`${source.charAt(0).toUpperCase() + source.slice(1)} points to ${describeOrigin(url)}, which is not this credential's AWeber API (${shownBase}). ` +
			'The request was not sent. AWeber links always start with the API Base URL set in the credential; check where this link came from.',
		itemIndex,
	});
}

/** Whether a link is absolute (`HTTPS://…` too: schemes are case-insensitive) rather than a path under /1.0. */
export function isAbsoluteLink(link: string): boolean {
	return /^https?:\/\//i.test(link);
}

/** Same scheme, host and port as the API base URL, no user name or password, and a path under its path (`/aweber/…` under `/aweber`). */
export function isUnderApiBase(url: string, apiBaseUrl: string): boolean {
	let target: URL;
	let base: URL;
	try {
		target = new URL(url);
		base = new URL(apiBaseUrl);
	} catch {
		return false;
	}
	if (target.protocol !== base.protocol || target.host !== base.host) return false;
	if (target.username !== '' || target.password !== '') return false;
	// An API base without a path has the path "/", under which every path lies.
	const basePath = base.pathname.replace(/\/+$/, '');
	return target.pathname.startsWith(`${basePath}/`);
}

export function describeOrigin(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return `"${url.slice(0, 80)}"`;
	}
}
