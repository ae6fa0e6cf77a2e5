import type { IDataObject, IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import { aweberGet } from './transport';

/** The `Location` of AWeber's answer (the resource a write created or touched), if it gave one. */
export function locationOf(response: IN8nHttpFullResponse): string | undefined {
	const location = String(response.headers.location ?? '');
	return location === '' ? undefined : location;
}

/** A postReceive that outputs the resource AWeber's answer links to, if it links one. */
function readLinkedResource(linkOf: (response: IN8nHttpFullResponse) => string | undefined, source: string) {
	return async function (this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
		const link = linkOf(response);
		if (link === undefined) return items;
		return [{ json: await aweberGet(this, link, undefined, { source }) }];
	};
}

/** Add subscriber, move subscriber and create custom field answer 201 with the new resource's URL in `Location`: read it. */
export const followLocation = readLinkedResource(locationOf, "the Location header of AWeber's answer");

/** Schedule and cancel answer only `{"self_link": ...}`: read the resource to show its new state. */
export const readSelfLink = readLinkedResource((response) => {
	const selfLink = (response.body as IDataObject | undefined)?.self_link;
	return typeof selfLink === 'string' && selfLink !== '' ? selfLink : undefined;
}, "the self_link of AWeber's answer");
