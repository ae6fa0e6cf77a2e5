import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLists } from '../shared/listSearch/searchLists';
import { aweberCredentials } from '../shared/requestDefaults';
import { readableSubtitle } from '../shared/subtitle';
import { aweberPollTriggerProperties } from './description';
import { pollAweberEvents } from './pollEvents';

export class AWeberPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		// The trigger panel drops " Trigger" from names: "AWeber Polling", not "AWeber Poll" (which reads as a survey).
		displayName: 'AWeber Polling Trigger',
		name: 'aWeberPollTrigger',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: readableSubtitle(aweberPollTriggerProperties, 'event'),
		description: 'Starts the workflow on new subscribers, unsubscribes or sent broadcasts, by polling AWeber (no webhook needed)',
		defaults: { name: 'AWeber Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		properties: aweberPollTriggerProperties,
	};

	methods = { listSearch: { searchAccounts, searchLists } };

	poll = pollAweberEvents;
}
