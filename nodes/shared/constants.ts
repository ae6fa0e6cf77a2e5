import { version } from '../../package.json';

export const AWEBER_CREDENTIAL_TYPE = 'aWeberOAuth2Api';

/** AWeber asks integrations to identify themselves in the User-Agent. */
export const USER_AGENT = `n8n-nodes-aweber/${version}`;

/** AWeber's largest page (`ws.size`, `page_size`). */
export const AWEBER_MAX_PAGE_SIZE = 100;

/** AWeber's limit: requests per account and minute, shared by every app on the account (docs/aweber-behaviour.md#rate-limit). */
export const AWEBER_REQUESTS_PER_MINUTE = 120;
