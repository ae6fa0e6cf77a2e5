import type { ICredentialDataDecryptedObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/** The trigger option that lets deliveries in without a key; its name says what it costs. */
export const ACCEPT_UNSIGNED_OPTION = {
	displayName: 'Accept Unsigned Deliveries (Insecure, for Testing Only)',
	name: 'acceptUnsignedDeliveries',
} as const;

/** As the credential's field is labelled in n8n. */
const KEY_FIELD = 'Webhook Verification Key';

/** What the 401 answer says when the trigger has no key: the sender learns nothing beyond that. */
export const NO_KEY_REFUSAL = 'deliveries cannot be verified: the trigger has no verification key';

/** Why activation fails without a key, and where to find one. */
export const NO_KEY_MESSAGE =
	`The AWeber credential's "${KEY_FIELD}" is empty, so the AWeber Webhook Trigger cannot tell AWeber's deliveries from forged ones. ` +
	`Copy your app's Verification Key from its webhook settings in AWeber's developer portal (labs.aweber.com, My Apps, your app) ` +
	`into the credential's "${KEY_FIELD}" field, or, to try the trigger without it, turn on the trigger's option "${ACCEPT_UNSIGNED_OPTION.displayName}".`;

/**
 * The credential's verification key, read from its masked field itself (a hidden copy of a secret would be neither
 * masked in the editor nor redacted by n8n's API); empty or whitespace counts as none.
 */
export function webhookVerificationKey(credentials: ICredentialDataDecryptedObject): string | undefined {
	const secret = credentials.webhookVerificationSecret;
	const key = typeof secret === 'string' ? secret.trim() : '';
	return key === '' ? undefined : key;
}

/** Whether the user opted in to unverified deliveries (only consulted when the credential has no key). */
export function acceptsUnsignedDeliveries(context: IWebhookFunctions | IHookFunctions): boolean {
	return context.getNodeParameter(`options.${ACCEPT_UNSIGNED_OPTION.name}`, false) === true;
}
