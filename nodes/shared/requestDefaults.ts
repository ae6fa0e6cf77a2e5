import type { INodeCredentialDescription, INodeTypeDescription } from 'n8n-workflow';

import { AWEBER_CREDENTIAL_TYPE, USER_AGENT } from './constants';
import { sendAweberRequest } from './sendAweberRequest';

export const aweberCredentials: INodeCredentialDescription[] = [
	{ name: AWEBER_CREDENTIAL_TYPE, required: true },
];

/** Every AWeber node's requests start from the credential's API base and AWeber's /1.0 prefix. */
export const aweberRequestDefaults: INodeTypeDescription['requestDefaults'] = {
	baseURL: '={{$credentials.apiBaseUrl.replace(/\\/+$/, "")}}/1.0',
	headers: {
		Accept: 'application/json',
		'User-Agent': USER_AGENT,
	},
};

/**
 * RoutingNode lets a named function wrap the HTTP exchange only through `requestOperations.pagination`.
 * Every AWeber operation goes through it (see `aweberTransport` in descriptions.ts) so pacing,
 * rate-limit waits, retries, collection pages and error mapping live in one place.
 */
export const aweberRequestOperations: INodeTypeDescription['requestOperations'] = {
	pagination: sendAweberRequest,
};
