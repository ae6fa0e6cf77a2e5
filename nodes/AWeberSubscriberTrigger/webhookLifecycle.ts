import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AWEBER_CREDENTIAL_TYPE } from '../shared/constants';
import { aweberGet } from '../shared/transport';
import { checkPathParameter } from '../shared/pathParameters';
import { NO_KEY_MESSAGE, acceptsUnsignedDeliveries, webhookVerificationKey } from './verificationKey';

/** The account or list ID, checked as the nodes' IDs are (pathParameters.ts) before it goes into a request path. */
function numericId(context: IHookFunctions, name: 'accountId' | 'listId'): string {
	return checkPathParameter(context.getNode(), name, context.getNodeParameter(name, '', { extractValue: true }));
}

/**
 * Fails activation (and "Listen for test event") when deliveries could not be verified, unless the user opted in:
 * the trigger would refuse every delivery anyway, and the user must learn it now, not from AWeber's delivery log.
 * Returns whether the credential has a key.
 */
async function requireVerificationKey(context: IHookFunctions): Promise<boolean> {
	const hasKey = webhookVerificationKey(await context.getCredentials(AWEBER_CREDENTIAL_TYPE)) !== undefined;
	if (!hasKey && !acceptsUnsignedDeliveries(context)) {
		throw new NodeOperationError(context.getNode(), NO_KEY_MESSAGE, {
			description: "Without the key, anyone who knows your app's client id could start this workflow.",
		});
	}
	return hasKey;
}

/**
 * AWeber has no API to register a webhook: the customer pastes the node's URL in AWeber's control panel.
 * So n8n's lifecycle registers nothing remotely. Activation checks, with one request, that the credential
 * reaches the account (and the filtered list, whose uuid deliveries carry), and logs the URL to paste.
 */
export const aweberWebhookLifecycle = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			// n8n calls this first on activation: refuse here, before anything else runs without a key.
			await requireVerificationKey(this);
			// Nothing exists at AWeber that n8n could look up; create() re-checks the credential each activation.
			return false;
		},

		async create(this: IHookFunctions): Promise<boolean> {
			const hasKey = await requireVerificationKey(this);
			const staticData = this.getWorkflowStaticData('node');
			if (this.getNodeParameter('filterByList', false) as boolean) {
				const accountId = numericId(this, 'accountId');
				const listId = numericId(this, 'listId');
				const list = await aweberGet<IDataObject>(this, `/accounts/${accountId}/lists/${listId}`);
				staticData.listUuid = list.uuid;
			} else {
				await aweberGet(this, '/accounts');
				delete staticData.listUuid;
			}
			const url = this.getNodeWebhookUrl('default');
			this.logger.info(`AWeber Webhook Trigger: AWeber must send this workflow's webhooks to ${url} (AWeber control panel, My Apps)`, {
				node: this.getNode().name,
			});
			if (!hasKey) {
				this.logger.warn(
					'AWeber Webhook Trigger: the credential has no Webhook Verification Key and the trigger accepts unsigned deliveries (insecure): anyone who knows the client id can start this workflow',
					{ node: this.getNode().name },
				);
			}
			return true;
		},

		async delete(this: IHookFunctions): Promise<boolean> {
			delete this.getWorkflowStaticData('node').listUuid;
			return true;
		},
	},
};
