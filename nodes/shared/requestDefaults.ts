import type { INodeCredentialDescription, INodeTypeDescription } from 'n8n-workflow';

import { AWEBER_CREDENTIAL_TYPE, USER_AGENT } from './constants';

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
