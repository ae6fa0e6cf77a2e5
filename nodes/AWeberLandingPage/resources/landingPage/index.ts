import type { INodeProperties } from 'n8n-workflow';

import { landingPageGetDescription } from './get';
import { landingPageGetManyDescription } from './getAll';

const LANDING_PAGES = '/accounts/{accountId}/lists/{listId}/landing_pages';

export const landingPageOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a landing page',
			description: 'Get one landing page of a list with its status, HTML and published URL',
			routing: { request: { method: 'GET', url: `${LANDING_PAGES}/{landingPageId}` } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many landing pages',
			description: 'Get the landing pages of a list, sorted by ID',
			routing: { request: { method: 'GET', url: LANDING_PAGES } },
		},
	],
	default: 'getAll',
};

export const landingPageDescription: INodeProperties[] = [
	landingPageOperations,
	...landingPageGetDescription,
	...landingPageGetManyDescription,
];
