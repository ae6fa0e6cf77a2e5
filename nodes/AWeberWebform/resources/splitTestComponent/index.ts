import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { splitTestComponentLocator, splitTestLocator } from '../locators';
import { SPLIT_TESTS } from '../splitTest';

const COMPONENTS = `${SPLIT_TESTS}/{splitTestId}/components`;

export const splitTestComponentOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['splitTestComponent'] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a split test component',
			description: 'Get one web form of a split test with its weight and the displays it had in the test',
			routing: { request: { method: 'GET', url: `${COMPONENTS}/{splitTestComponentId}` } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many split test components',
			description: 'Get the web forms taking part in a split test, with their weights',
			routing: { request: { method: 'GET', url: COMPONENTS } },
		},
	],
	default: 'getAll',
};

export const splitTestComponentDescription: INodeProperties[] = [
	splitTestComponentOperations,
	...updateDisplayOptions({ show: { resource: ['splitTestComponent'], operation: ['get'] } }, [
		...listScopeLocators(),
		splitTestLocator,
		splitTestComponentLocator,
	]),
	...updateDisplayOptions({ show: { resource: ['splitTestComponent'], operation: ['getAll'] } }, [
		...listScopeLocators(),
		splitTestLocator,
		...collectionPaging(),
	]),
];
