import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLists } from '../shared/listSearch/searchLists';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { listDescription } from './resources/list';
import { listToolDescriptions } from './toolDescriptions';

export class AWeberList implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber List',
		name: 'aWeberList',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['input'],
		subtitle: readableSubtitle(listDescription),
		description: 'Read the mailing lists of an AWeber account and their tags',
		defaults: { name: 'AWeber List' },
		usableAsTool: true,
		properties: [aweberTransport, ...listDescription, ...listToolDescriptions],
	};

	methods = { listSearch: { searchAccounts, searchLists } };
}
