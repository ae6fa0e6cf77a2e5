import type { INodeProperties } from 'n8n-workflow';

import { SPLIT_TESTS } from '../splitTest';
import { splitTestComponentGetDescription } from './get';
import { splitTestComponentGetManyDescription } from './getAll';

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
	...splitTestComponentGetDescription,
	...splitTestComponentGetManyDescription,
];
