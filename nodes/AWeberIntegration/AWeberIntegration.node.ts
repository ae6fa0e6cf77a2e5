import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchIntegrations } from '../shared/listSearch/searchIntegrations';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { integrationDescription } from './resources/integration';
import { integrationToolDescriptions } from './toolDescriptions';

export class AWeberIntegration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Integration',
		name: 'aWeberIntegration',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['input'],
		subtitle: readableSubtitle(integrationDescription),
		description: 'Read the third-party integrations (Facebook, Twitter, PayPal…) connected to an AWeber account',
		defaults: { name: 'AWeber Integration' },
		usableAsTool: true,
		properties: [aweberTransport, ...integrationDescription, ...integrationToolDescriptions],
	};

	methods = { listSearch: { searchAccounts, searchIntegrations } };
}
