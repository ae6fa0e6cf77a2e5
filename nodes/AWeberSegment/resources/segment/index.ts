import type { INodeProperties } from 'n8n-workflow';

import { segmentGetDescription } from './get';
import { segmentGetManyDescription } from './getAll';

const SEGMENTS = '/accounts/{accountId}/lists/{listId}/segments';

export const segmentOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a segment',
			description: 'Get one segment (saved subscriber search) of a list',
			routing: { request: { method: 'GET', url: `${SEGMENTS}/{segmentId}` } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many segments',
			description: 'Get the segments of a list, sorted by ID; a broadcast can be sent to one of them',
			routing: { request: { method: 'GET', url: SEGMENTS } },
		},
	],
	default: 'getAll',
};

export const segmentDescription: INodeProperties[] = [segmentOperations, ...segmentGetDescription, ...segmentGetManyDescription];
