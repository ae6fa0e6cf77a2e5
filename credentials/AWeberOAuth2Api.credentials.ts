import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/** Every current AWeber scope; `subscriber.read-extended` is obsolete (covered by `subscriber.read`). */
export const AWEBER_SCOPES = [
	'account.read',
	'landing-page.read',
	'list.read',
	'list.write',
	'subscriber.read',
	'subscriber.write',
	'email.read',
	'email.write',
] as const;

export class AWeberOAuth2Api implements ICredentialType {
	name = 'aWeberOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'AWeber OAuth2 API';

	icon: Icon = { light: 'file:../icons/aweber.svg', dark: 'file:../icons/aweber.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-aweber/n8n-nodes-aweber#credentials';

	properties: INodeProperties[] = [
		{
			// n8n's OAuth2 machinery reads `grantType`: authorizationCode sends the client secret with
			// HTTP Basic at the token endpoint; pkce sends client_id in the body with an S256 challenge.
			displayName: 'App Type',
			name: 'grantType',
			type: 'options',
			options: [
				{
					name: 'Confidential (Client ID and Secret)',
					value: 'authorizationCode',
					description: 'An AWeber app that can keep its client secret, such as a self-hosted n8n',
				},
				{
					name: 'Public (PKCE, Client ID Only)',
					value: 'pkce',
					description: 'An AWeber app registered as public: no secret, Proof Key for Code Exchange (S256)',
				},
			],
			default: 'authorizationCode',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { grantType: ['authorizationCode'] } },
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: AWEBER_SCOPES.join(' '),
			description:
				'Space-separated AWeber scopes. Narrow them to what your workflows need; changing scopes means reconnecting the credential.',
		},
		{
			// A secret: whoever holds it can forge deliveries that the trigger would accept. Its name says so,
			// which is how n8n's credential rules (credential-password-field / credential-unnecessary-password)
			// tell a secret from a plain setting, so it is masked in the UI and redacted in API answers. The AWeber
			// Trigger reads this field itself: no hidden copy of it exists to leak.
			displayName: 'Webhook Verification Key',
			name: 'webhookVerificationSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"Your AWeber app's webhook Verification Key (labs.aweber.com, My Apps, your app's webhook settings). Required by the AWeber Webhook Trigger: without it the trigger refuses every delivery and cannot be activated.",
		},
		{
			displayName: 'API Base URL',
			name: 'apiBaseUrl',
			type: 'string',
			default: 'https://api.aweber.com',
			description: "AWeber's API host; resources live under /1.0. Change it only to use a sandbox.",
		},
		{
			displayName: 'Auth Base URL',
			name: 'authBaseUrl',
			type: 'string',
			default: 'https://auth.aweber.com',
			description: "AWeber's OAuth host (/oauth2/authorize, /oauth2/token). Change it only to use a sandbox.",
		},
		{
			displayName: 'Rate Limit (Requests)',
			name: 'rateLimitRequests',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 120,
			description:
				'Requests allowed per window for this AWeber account. AWeber allows 120 per minute; the nodes pace themselves below it.',
		},
		{
			displayName: 'Rate Limit Window (Seconds)',
			name: 'rateLimitWindowSeconds',
			type: 'number',
			typeOptions: { minValue: 0.001, numberPrecision: 3 },
			default: 60,
			description: 'Length of the rate-limit window, and how long AWeber locks the account out after the limit is hit',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: '={{$self["authBaseUrl"].replace(/\\/+$/, "")}}/oauth2/authorize',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{$self["authBaseUrl"].replace(/\\/+$/, "")}}/oauth2/token',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			// AWeber prefers HTTP Basic for confidential clients; without a secret n8n sends client_id in the body.
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'header',
		},
	];

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.apiBaseUrl.replace(/\\/+$/, "")}}/1.0',
			url: '/accounts',
		},
	};
}
