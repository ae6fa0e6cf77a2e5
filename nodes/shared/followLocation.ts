import type { IDataObject, IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import { aweberGet } from './transport';

/** The `Location` of AWeber's answer (the resource a write created or touched), if it gave one. */
export function locationOf(response: IN8nHttpFullResponse): string | undefined {
	const location = response.headers?.location;
	return typeof location === 'string' && location !== '' ? location : undefined;
}

/**
 * AWeber answers add subscriber, move subscriber and create custom field with 201, an empty body and the
 * new resource's URL in `Location`; users want the resource itself, so read it.
 */
export async function followLocation(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const location = locationOf(response);
	if (location === undefined) return items;
	return [{ json: await aweberGet(this, location, undefined, { source: "the Location header of AWeber's answer" }) }];
}

/** Schedule and cancel answer only `{"self_link": ...}`; read the resource to show its new state. */
export async function readSelfLink(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const selfLink = (response.body as IDataObject | undefined)?.self_link;
	if (typeof selfLink !== 'string' || selfLink === '') return items;
	return [{ json: await aweberGet(this, selfLink, undefined, { source: "the self_link of AWeber's answer" }) }];
}
