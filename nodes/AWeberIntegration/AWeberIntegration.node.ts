import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { aweberTransport } from '../shared/descriptions';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchIntegrations } from '../shared/listSearch/searchIntegrations';
import { aweberCredentials, aweberRequestDefaults, aweberRequestOperations } from '../shared/requestDefaults';
import { integrationDescription } from './resources/integration';

export class AWeberIntegration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Integration',
		name: 'aWeberIntegration',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Read the third-party integrations (Facebook, Twitter, PayPal…) connected to an AWeber account',
		defaults: { name: 'AWeber Integration' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		requestDefaults: aweberRequestDefaults,
		requestOperations: aweberRequestOperations,
		properties: [aweberTransport, ...integrationDescription],
	};

	methods = { listSearch: { searchAccounts, searchIntegrations } };
}
