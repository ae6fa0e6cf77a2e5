import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLandingPages } from '../shared/listSearch/searchLandingPages';
import { searchLists } from '../shared/listSearch/searchLists';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { landingPageDescription } from './resources/landingPage';
import { landingPageToolDescriptions } from './toolDescriptions';

export class AWeberLandingPage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Landing Page',
		name: 'aWeberLandingPage',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['input'],
		subtitle: readableSubtitle(landingPageDescription),
		description: 'Read the landing pages of an AWeber list',
		defaults: { name: 'AWeber Landing Page' },
		usableAsTool: true,
		properties: [aweberTransport, ...landingPageDescription, ...landingPageToolDescriptions],
	};

	methods = { listSearch: { searchAccounts, searchLists, searchLandingPages } };
}
