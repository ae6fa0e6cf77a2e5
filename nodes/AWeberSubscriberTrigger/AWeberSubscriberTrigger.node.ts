import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLists } from '../shared/listSearch/searchLists';
import { aweberCredentials } from '../shared/requestDefaults';
import { readableSubtitle } from '../shared/subtitle';
import { aweberTriggerProperties } from './description';
import { receiveAweberDelivery } from './receiveDelivery';
import { aweberWebhookLifecycle } from './webhookLifecycle';

export class AWeberSubscriberTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Webhook Trigger',
		// The Subscriber node's type name plus "Trigger": n8n's node panel then lists this trigger's events on the
		// AWeber (Subscriber) page (docs/triggers.md, "In n8n's node panel").
		name: 'aWeberSubscriberTrigger',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: readableSubtitle(aweberTriggerProperties, 'events'),
		// n8n's node panel shows this trigger on the Subscriber node's page ("AWeber") with this description in place of
		// the node's: so it says the node's first (docs/triggers.md#in-n8ns-node-panel).
		description:
			"Add, tag, update, find, move and unsubscribe the subscribers of AWeber lists; as a trigger, starts the workflow when AWeber's webhook reports a subscriber added, subscribed or unsubscribed",
		defaults: { name: 'AWeber Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		triggerPanel: {
			header: '',
			executionsHelp: {
				inactive:
					"While building, send a test event to the Test URL (Webhook URLs, above). AWeber itself only calls the Production URL entered in its control panel, so activate the workflow to receive AWeber's deliveries.",
				active:
					"The workflow runs for each AWeber delivery sent to its Production URL. Deliveries are verified with the credential's Webhook Verification Key; without it they are refused unless the trigger accepts unsigned deliveries (insecure).",
			},
			activationHint:
				"Once you've finished building your workflow, activate it and paste the Production URL into AWeber's control panel (My Apps).",
		},
		properties: aweberTriggerProperties,
	};

	methods = { listSearch: { searchAccounts, searchLists } };

	webhookMethods = aweberWebhookLifecycle;

	webhook = receiveAweberDelivery;
}
