import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchBroadcasts } from '../shared/listSearch/searchBroadcasts';
import { searchLists } from '../shared/listSearch/searchLists';
import { aweberCredentials } from '../shared/requestDefaults';
import { readableSubtitle } from '../shared/subtitle';
import { aweberPollTriggerProperties } from './description';
import { pollAweberEvents } from './pollEvents';

export class AWeberListTrigger implements INodeType {
	description: INodeTypeDescription = {
		// "Polling", not "Poll" (which reads as a survey).
		displayName: 'AWeber Polling Trigger',
		// The List node's type name plus "Trigger": n8n's node panel then lists this trigger's events (all of one list)
		// on the AWeber List page (docs/triggers.md, "In n8n's node panel").
		name: 'aWeberListTrigger',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: readableSubtitle(aweberPollTriggerProperties, 'event'),
		// Shown on the List node's page of n8n's node panel in place of the node's description: it says the node's first.
		description:
			'Read the mailing lists of an AWeber account and their tags; as a trigger, starts the workflow on new subscribers, unsubscribes, sent broadcasts, broadcast opens or link clicks, by polling AWeber (no webhook needed)',
		defaults: { name: 'AWeber Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		properties: aweberPollTriggerProperties,
	};

	methods = { listSearch: { searchAccounts, searchLists, searchBroadcasts } };

	poll = pollAweberEvents;
}
