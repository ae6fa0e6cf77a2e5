import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { aweberTransport } from '../shared/descriptions';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLists } from '../shared/listSearch/searchLists';
import { searchSegments } from '../shared/listSearch/searchSegments';
import { aweberCredentials, aweberRequestDefaults, aweberRequestOperations } from '../shared/requestDefaults';
import { segmentDescription } from './resources/segment';

export class AWeberSegment implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Segment',
		name: 'aWeberSegment',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Read the segments (saved subscriber searches) of an AWeber list',
		defaults: { name: 'AWeber Segment' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: aweberCredentials,
		requestDefaults: aweberRequestDefaults,
		requestOperations: aweberRequestOperations,
		properties: [aweberTransport, ...segmentDescription],
	};

	methods = { listSearch: { searchAccounts, searchLists, searchSegments } };
}
