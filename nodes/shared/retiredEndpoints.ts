import type { INodeProperties } from 'n8n-workflow';

/**
 * Campaign messages, their opens and tracked events, and the subscribers of a message: the specification this
 * package was founded on names them, but AWeber's current API reference (1.4.0) no longer lists them
 * (docs/aweber-behaviour.md#retired-endpoints). The operations stay; the user is told, here and in the error
 * when AWeber answers 404 there (errors.ts).
 */
export const RETIRED_ENDPOINT_NOTE =
	"Not in AWeber's current API reference, which no longer lists campaign messages; for opens, clicks and counts use the AWeber Broadcast node (Get Opens, Get Clicks, Get Statistic)";

/** The editor notice shown with an operation on a retired endpoint (where `show` says, or where its operation file shows it). */
export function retiredEndpointNotice(show?: Record<string, string[]>): INodeProperties {
	return {
		displayName: `${RETIRED_ENDPOINT_NOTE}.`,
		name: 'retiredEndpointNotice',
		type: 'notice',
		default: '',
		...(show ? { displayOptions: { show } } : {}),
	};
}
