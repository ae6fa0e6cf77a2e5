import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { accountDescription } from './resources/account';
import { accountToolDescriptions } from './toolDescriptions';

export class AWeberAccount implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Account',
		name: 'aWeberAccount',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['input'],
		subtitle: readableSubtitle(accountDescription),
		description: 'Read the AWeber account connected to n8n',
		defaults: { name: 'AWeber Account' },
		usableAsTool: true,
		properties: [aweberTransport, ...accountDescription, ...accountToolDescriptions],
	};

	methods = { listSearch: { searchAccounts } };
}
