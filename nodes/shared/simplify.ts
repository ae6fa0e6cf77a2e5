import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { isCollectionPage, isObject } from './answers';
import { listOfLink } from './links';

/*
 * Simplify: the fields users map most instead of AWeber's whole object (about 40 fields for a subscriber, 30 for
 * a broadcast). Kept fields keep AWeber's names, so an expression reading one works with Simplify on or off.
 */

/**
 * The named fields AWeber gave, in this order; absent ones are left out, not invented. Built field by field, not
 * with spreads: a Return All simplifies thousands of entries, and objects built by spreads take far more memory.
 */
function pick(source: IDataObject, names: string[], into: IDataObject = {}): IDataObject {
	for (const name of names) if (source[name] !== undefined) into[name] = source[name];
	return into;
}

const SUBSCRIBER_FIELDS = ['id', 'email', 'name', 'status', 'tags', 'custom_fields', 'subscribed_at', 'unsubscribed_at'];

/**
 * A subscriber's main fields, its list and its link. The list comes from `list_link` in search results (which
 * also name it, `list_name`), else from the subscriber's self_link.
 */
export function simplifiedSubscriber(subscriber: IDataObject): IDataObject {
	const simplified = pick(subscriber, SUBSCRIBER_FIELDS);
	const list = listOfLink(subscriber.list_link ?? subscriber.self_link);
	if (list.list_id !== undefined) simplified.list_id = list.list_id;
	if (subscriber.list_name !== undefined) simplified.list_name = subscriber.list_name;
	if (list.list_link !== undefined) simplified.list_link = list.list_link;
	return pick(subscriber, ['self_link'], simplified);
}

const BROADCAST_FIELDS = ['broadcast_id', 'subject', 'status', 'created_at', 'scheduled_for', 'sent_at', 'stats'];

/**
 * A broadcast's main fields and its link. A sent broadcast is also the campaign `b{id}` whose statistics live at
 * `…/campaigns/b{id}/stats` (what Get Statistics reads): `stats_link`, null until it is sent.
 */
export function simplifiedBroadcast(broadcast: IDataObject): IDataObject {
	const sent = broadcast.status === 'sent' || broadcast.status === 'sending';
	const link = sent && typeof broadcast.self_link === 'string' ? /^(.*)\/broadcasts\/(\d+)$/.exec(broadcast.self_link) : null;
	const statsLink = link ? `${link[1]}/campaigns/b${link[2]}/stats` : null;
	const simplified = pick(broadcast, BROADCAST_FIELDS);
	simplified.stats_link = statsLink;
	return pick(broadcast, ['self_link'], simplified);
}

/**
 * The postReceive of a Simplify toggle: each output object (or each entry of a collection page, whose envelope the
 * routed entry still reads) simplified when Simplify is on.
 */
function simplifyOutput(simplify: (entry: IDataObject) => IDataObject) {
	return async function (this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		if (this.getNodeParameter('simplify', true) !== true) return items;
		return eachOutputEntry(items, simplify);
	};
}

/**
 * Each output object, or each entry of a collection page (whose envelope the routed entry still reads), reshaped.
 * A page's own list of entries is emptied once they are reshaped: n8n's HTTP client holds on to its answer until the
 * connection is free again, which, while Return All reads pages ahead, lasts long enough for V8 to move the raw
 * entries to its old generation, where they would stay as garbage as large as the output (bench/RESULTS.md, Return All).
 */
export function eachOutputEntry(items: INodeExecutionData[], reshape: (entry: IDataObject) => IDataObject): INodeExecutionData[] {
	return items.map((item) => {
		const { json } = item;
		if (isCollectionPage(json)) {
			const entries = json.entries.map(reshape);
			json.entries.length = 0;
			return { ...item, json: { ...json, entries } };
		}
		// An answer that is no object (JSON `null`, text, an array) is not an entry: it goes on as AWeber gave it, to be refused.
		return isObject(json) ? { ...item, json: reshape(json) } : item;
	});
}

export const simplifySubscribers = simplifyOutput(simplifiedSubscriber);
export const simplifyBroadcasts = simplifyOutput(simplifiedBroadcast);
