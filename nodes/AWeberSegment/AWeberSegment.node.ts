import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { aweberTransport } from '../shared/routing';
import { searchAccounts } from '../shared/listSearch/searchAccounts';
import { searchLists } from '../shared/listSearch/searchLists';
import { searchSegments } from '../shared/listSearch/searchSegments';
import { aweberActionNode } from '../shared/nodeDescription';
import { readableSubtitle } from '../shared/subtitle';
import { segmentDescription } from './resources/segment';
import { segmentToolDescriptions } from './toolDescriptions';

export class AWeberSegment implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AWeber Segment',
		name: 'aWeberSegment',
		icon: { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' },
		...aweberActionNode,
		group: ['input'],
		subtitle: readableSubtitle(segmentDescription),
		description: 'Read the segments (saved subscriber searches) of an AWeber list',
		defaults: { name: 'AWeber Segment' },
		usableAsTool: true,
		properties: [aweberTransport, ...segmentDescription, ...segmentToolDescriptions],
	};

	methods = { listSearch: { searchAccounts, searchLists, searchSegments } };
}
