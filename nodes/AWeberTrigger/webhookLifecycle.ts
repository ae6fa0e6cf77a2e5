import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AWEBER_CREDENTIAL_TYPE } from '../shared/constants';
import { aweberGet } from '../shared/transport';

function numericId(context: IHookFunctions, name: 'accountId' | 'listId', label: string): string {
	const value = String(context.getNodeParameter(name, '', { extractValue: true }) ?? '').trim();
	if (!/^\d+$/.test(value)) {
		throw new NodeOperationError(context.getNode(), `The "${label}" field must be a numeric AWeber ID, not "${value}"`, {
			description: `Choose a ${label.toLowerCase()} from the list, or enter its ID or URL.`,
		});
	}
	return value;
}

/**
 * AWeber has no API to register a webhook: the customer pastes the node's URL in AWeber's control panel.
 * So n8n's lifecycle registers nothing remotely. Activation checks, with one request, that the credential
 * reaches the account (and the filtered list, whose uuid deliveries carry), and logs the URL to paste.
 */
export const aweberWebhookLifecycle = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			// Nothing exists at AWeber that n8n could look up; create() re-checks the credential each activation.
			return false;
		},

		async create(this: IHookFunctions): Promise<boolean> {
			const staticData = this.getWorkflowStaticData('node');
			if (this.getNodeParameter('filterByList', false) as boolean) {
				const accountId = numericId(this, 'accountId', 'Account');
				const listId = numericId(this, 'listId', 'List');
				const list = await aweberGet<IDataObject>(this, `/accounts/${accountId}/lists/${listId}`);
				staticData.listUuid = list.uuid;
			} else {
				await aweberGet(this, '/accounts');
				delete staticData.listUuid;
			}
			const credentials = await this.getCredentials(AWEBER_CREDENTIAL_TYPE);
			const url = this.getNodeWebhookUrl('default');
			this.logger.info(`AWeber Trigger: AWeber must send this workflow's webhooks to ${url} (AWeber control panel, My Apps)`, {
				node: this.getNode().name,
			});
			if (String(credentials.webhookVerificationKey ?? '').trim() === '') {
				this.logger.warn(
					'AWeber Trigger: the credential has no Webhook Verification Key, so deliveries are accepted without verifying their signature',
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
