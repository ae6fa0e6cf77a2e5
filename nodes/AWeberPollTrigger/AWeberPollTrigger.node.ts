import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLists } from '../shared/listSearch/searchLists';
import { aweberCredentials } from '../shared/requestDefaults';
import { aweberPollTriggerProperties } from './description';
import { pollAweberEvents } from './pollEvents';

export class AWeberPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Poll Trigger',
		name: 'aWeberPollTrigger',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description: 'Starts the workflow on new subscribers, unsubscribes or sent broadcasts, by polling AWeber (no webhook needed)',
		defaults: { name: 'AWeber Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		properties: aweberPollTriggerProperties,
	};

	methods = { listSearch: { searchAccounts, searchLists } };

	poll = pollAweberEvents;
}
