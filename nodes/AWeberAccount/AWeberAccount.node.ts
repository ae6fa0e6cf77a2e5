import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { aweberTransport } from '../shared/descriptions';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { aweberCredentials, aweberRequestDefaults, aweberRequestOperations } from '../shared/requestDefaults';
import { accountDescription } from './resources/account';

export class AWeberAccount implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Account',
		name: 'aWeberAccount',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Read the AWeber account connected to n8n',
		defaults: { name: 'AWeber Account' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		requestDefaults: aweberRequestDefaults,
		requestOperations: aweberRequestOperations,
		properties: [aweberTransport, ...accountDescription],
	};

	methods = { listSearch: { searchAccounts } };
}
