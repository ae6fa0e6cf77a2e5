import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { accountSettings } from './accountSettings';
import type { AweberContext } from './aweberContext';
import { AWEBER_CREDENTIAL_TYPE, USER_AGENT } from './constants';
import { isAbsoluteLink } from './origin';
import { NO_AUTOMATIC_REDIRECTS, sendFollowingApiRedirects } from './redirects';
import { sendWithAweberPolicies } from './sendWithPolicies';

/* Hand-written AWeber requests (searches, follow-ups, triggers): docs/architecture.md#the-request-path-in-files. */

interface AweberRequest {
	method: IHttpRequestMethods;
	/** A path under /1.0 (`/accounts/1/lists`) or an absolute AWeber link (`self_link`, `next_collection_link`). */
	url: string;
	qs?: IDataObject;
	body?: IDataObject | string;
	/** AWeber wants some writes form-encoded (broadcasts, custom field create). */
	form?: boolean;
	itemIndex?: number;
	/** Where an absolute `url` came from, named if it points outside the credential's API (origin.ts). */
	source?: string;
	/** One of several requests the item has in flight at once (pages read ahead). */
	concurrent?: boolean;
}

export async function aweberApiRequest(context: AweberContext, request: AweberRequest): Promise<IN8nHttpFullResponse> {
	const { settings } = await accountSettings(context);
	const url = isAbsoluteLink(request.url) ? request.url : `${settings.apiBaseUrl}/1.0${request.url}`;
	const headers: IDataObject = { Accept: 'application/json', 'User-Agent': USER_AGENT };
	if (request.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
	const target = { url, method: request.method, apiBaseUrl: settings.apiBaseUrl, itemIndex: request.itemIndex };
	return await sendWithAweberPolicies(context, { ...request, url }, async () =>
		await sendFollowingApiRedirects(context.getNode(), target, async (hop) => {
			const options: IHttpRequestOptions = {
				...NO_AUTOMATIC_REDIRECTS,
				method: hop.method,
				url: hop.url,
				// A redirect's Location carries its whole query.
				qs: hop.redirected ? undefined : request.qs,
				headers: { ...headers },
				returnFullResponse: true,
				json: !request.form,
			};
			if (request.body !== undefined && hop.keepsBody) options.body = request.body;
			else delete options.headers!['Content-Type'];
			return (await context.helpers.httpRequestWithAuthentication.call(
				context as IExecuteSingleFunctions,
				AWEBER_CREDENTIAL_TYPE,
				options,
			)) as IN8nHttpFullResponse;
		}),
	);
}

/** GET an AWeber link or path and return its JSON body. */
export async function aweberGet<T = IDataObject>(
	context: AweberContext,
	url: string,
	qs?: IDataObject,
	options: Pick<AweberRequest, 'source' | 'itemIndex' | 'concurrent'> = {},
): Promise<T> {
	return (await aweberApiRequest(context, { method: 'GET', url, qs, ...options })).body as T;
}
