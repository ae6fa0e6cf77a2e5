import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchCustomFields } from '../shared/listSearch/searchCustomFields';
import { searchLists } from '../shared/listSearch/searchLists';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { customFieldDescription } from './resources/customField';
import { customFieldToolDescriptions } from './toolDescriptions';

export class AWeberCustomField implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Custom Field',
		name: 'aWeberCustomField',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['transform'],
		subtitle: readableSubtitle(customFieldDescription),
		description: 'Read, add, rename and delete the custom fields of an AWeber list',
		defaults: { name: 'AWeber Custom Field' },
		usableAsTool: true,
		properties: [aweberTransport, ...customFieldDescription, ...customFieldToolDescriptions],
	};

	methods = { listSearch: { searchAccounts, searchLists, searchCustomFields } };
}
