import type { INodeProperties, PostReceiveAction } from 'n8n-workflow';

import { AWEBER_MAX_PAGE_SIZE } from './constants';

/*
 * Field builders shared by the nodes' operation files. Pure descriptions: nothing here reaches the network layer
 * (docs/architecture.md#fields-and-hooks). An operation file shows its fields for its operation once, at its end,
 * with n8n's `updateDisplayOptions`, so these builders take no displayOptions.
 */

/** A resource locator: pick from a searchable list, type the ID, or paste the AWeber URL (`self_link`). */
export function aweberLocator(options: {
	name: string;
	displayName: string;
	searchMethod: string;
	urlSegment: string;
	urlExample: string;
	idPlaceholder: string;
	idPattern?: string;
	description?: string;
}): INodeProperties {
	// The id that follows `/<segment>/` in an AWeber link such as a `self_link`.
	const urlPattern = `https?://[^/]+/1\\.0/(?:.*/)?${options.urlSegment}/([^/?#]+)`;
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: options.searchMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.idPlaceholder,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: options.idPattern ?? '^\\d{1,20}$',
							errorMessage: `Not a valid ${options.displayName} ID`,
						},
					},
				],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: options.urlExample,
				// AWeber's web app pages carry no ID the API takes (docs/aweber-behaviour.md#web-pages-and-api-links).
				hint: `The ${options.displayName.toLowerCase()}'s API link, as AWeber's answers give it in "self_link" (${options.urlExample}), not the address of a page in AWeber's web app`,
				validation: [
					{
						type: 'regex',
						properties: { regex: `${urlPattern}.*`, errorMessage: `Not an AWeber ${options.urlSegment} URL` },
					},
				],
				extractValue: { type: 'regex', regex: urlPattern },
			},
		],
	};
}

export const accountLocator = aweberLocator({
	name: 'accountId',
	displayName: 'Account',
	searchMethod: 'searchAccounts',
	urlSegment: 'accounts',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456',
	idPlaceholder: '123456',
	description: 'The AWeber account (the one that authorized the credential)',
});

export const listLocator = aweberLocator({
	name: 'listId',
	displayName: 'List',
	searchMethod: 'searchLists',
	urlSegment: 'lists',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321',
	idPlaceholder: '654321',
});

/**
 * Return All / Limit for an AWeber collection. Pages are followed by `sendAweberRequest`;
 * these fields only set the page size and the cap.
 */
export function collectionPaging(pageSizeParameter: 'ws.size' | 'page_size' = 'ws.size'): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			routing: {
				send: {
					type: 'query',
					property: pageSizeParameter,
					propertyInDotNotation: false,
					value: `={{ $value ? ${AWEBER_MAX_PAGE_SIZE} : undefined }}`,
				},
			},
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: { show: { returnAll: [false] } },
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			routing: {
				send: {
					type: 'query',
					property: pageSizeParameter,
					propertyInDotNotation: false,
					value: `={{ Math.min($value, ${AWEBER_MAX_PAGE_SIZE}) }}`,
				},
				output: { maxResults: '={{$value}}' },
			},
		},
	];
}

/**
 * The Simplify toggle of one operation, carrying its postReceive (runs only where the toggle is shown); the
 * postReceive comes from the resource's hooks (simplify.ts).
 */
export function simplifyToggle(postReceive: PostReceiveAction): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		routing: { output: { postReceive: [postReceive] } },
	};
}
