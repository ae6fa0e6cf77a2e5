import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The one origin check. Every request that carries the AWeber credential goes through
 * `sendWithAweberPolicies` (transport.ts), which calls this before anything is sent: an absolute link
 * handed to the package (a pagination token from the editor, a `Location` header, a `next_collection_link`,
 * a `self_link`, a webhook payload link) may only point under the credential's API base URL, or the
 * access token would go to whoever wrote the link. n8n's OAuth2 helper sends the token endpoint request
 * itself, to the credential's Access Token URL, which the credential builds from its Auth Base URL.
 */
export function assertUnderApiBase(node: INode, url: string, apiBaseUrl: string, source: string | undefined, itemIndex?: number): void {
	if (isUnderApiBase(url, apiBaseUrl)) return;
	throw new NodeOperationError(node, `Refused to send the AWeber credential to ${describeOrigin(url)}`, {
		description:
			`${source ? capitalize(source) : 'A link'} points to ${describeOrigin(url)}, which is not this credential's AWeber API (${apiBaseUrl}). ` +
			'The request was not sent. AWeber links always start with the API Base URL set in the credential; check where this link came from.',
		itemIndex,
	});
}

/**
 * Whether a link is absolute (`http://…`, `HTTPS://…`: schemes are case-insensitive) rather than a path under
 * /1.0. The one reader of that question, so a link spelled in capitals is never taken for a path.
 */
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

function describeOrigin(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return `"${url.slice(0, 80)}"`;
	}
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
