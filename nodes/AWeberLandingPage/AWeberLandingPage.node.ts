import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { aweberTransport } from '../shared/descriptions';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLandingPages } from '../shared/listSearch/searchLandingPages';
import { searchLists } from '../shared/listSearch/searchLists';
import { aweberCredentials, aweberRequestDefaults, aweberRequestOperations } from '../shared/requestDefaults';
import { landingPageDescription } from './resources/landingPage';

export class AWeberLandingPage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Landing Page',
		name: 'aWeberLandingPage',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Read the landing pages of an AWeber list',
		defaults: { name: 'AWeber Landing Page' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		requestDefaults: aweberRequestDefaults,
		requestOperations: aweberRequestOperations,
		properties: [aweberTransport, ...landingPageDescription],
	};

	methods = { listSearch: { searchAccounts, searchLists, searchLandingPages } };
}
