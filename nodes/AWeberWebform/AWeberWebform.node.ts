import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLists } from '../shared/listSearch/searchLists';
import { searchSplitTestComponents } from '../shared/listSearch/searchSplitTestComponents';
import { searchSplitTests } from '../shared/listSearch/searchSplitTests';
import { searchWebForms } from '../shared/listSearch/searchWebForms';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { splitTestDescription } from './resources/splitTest';
import { splitTestComponentDescription } from './resources/splitTestComponent';
import { webFormDescription } from './resources/webForm';
import { webformToolDescriptions } from './toolDescriptions';

const properties: INodeProperties[] = [
	aweberTransport,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Split Test', value: 'splitTest' },
			{ name: 'Split Test Component', value: 'splitTestComponent' },
			{ name: 'Web Form', value: 'webForm' },
		],
		default: 'webForm',
	},
	...webFormDescription,
	...splitTestDescription,
	...splitTestComponentDescription,
	...webformToolDescriptions,
];

export class AWeberWebform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Webform',
		name: 'aWeberWebform',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['input'],
		subtitle: readableSubtitle(properties),
		description: 'Read AWeber sign-up forms and their split tests, with display and conversion counts',
		defaults: { name: 'AWeber Webform' },
		usableAsTool: true,
		properties,
	};

	methods = { listSearch: { searchAccounts, searchLists, searchWebForms, searchSplitTests, searchSplitTestComponents } };
}
