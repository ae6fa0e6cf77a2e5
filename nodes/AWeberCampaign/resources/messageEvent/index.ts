import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { campaignLocator, messageLocator } from '../../../shared/campaignLocators';
import { collectionPaging } from '../../../shared/descriptions';
import { listScopeLocators } from '../../../shared/listScope';
import { MESSAGE } from '../message';

/**
 * Opens and tracked events (clicks on tracked links, sales, web hits) hang off a message the same way:
 * a collection and its entries by id. One definition serves both resources.
 */
function messageEventResource(options: {
	resource: string;
	/** Singular, as in "Get an open". */
	noun: string;
	plural: string;
	pathSegment: string;
	idName: string;
	idLabel: string;
	getDescription: string;
	getManyDescription: string;
}): INodeProperties[] {
	const article = /^[aeiou]/i.test(options.noun) ? 'an' : 'a';
	const messageFields = [...listScopeLocators(), campaignLocator, messageLocator];
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [options.resource] } },
			options: [
				{
					name: 'Get',
					value: 'get',
					action: `Get ${article} ${options.noun} of a message`,
					description: options.getDescription,
					routing: { request: { method: 'GET', url: `${MESSAGE}/${options.pathSegment}/{${options.idName}}` } },
				},
				{
					name: 'Get Many',
					value: 'getAll',
					action: `Get the ${options.plural} of a message`,
					description: options.getManyDescription,
					routing: { request: { method: 'GET', url: `${MESSAGE}/${options.pathSegment}` } },
				},
			],
			default: 'getAll',
		},
		...updateDisplayOptions({ show: { resource: [options.resource], operation: ['getAll'] } }, [...messageFields, ...collectionPaging()]),
		...updateDisplayOptions({ show: { resource: [options.resource], operation: ['get'] } }, [
			...messageFields,
			{
				displayName: `${options.idLabel} ID`,
				name: options.idName,
				type: 'string',
				required: true,
				default: '',
				placeholder: '1',
				description: `The ID of the ${options.noun} (the ID of an item from Get Many)`,
			},
		]),
	];
}

export const messageOpenDescription = messageEventResource({
	resource: 'messageOpen',
	noun: 'open',
	plural: 'opens',
	pathSegment: 'opens',
	idName: 'openId',
	idLabel: 'Open',
	getDescription: 'Get one open of a message: when the subscriber opened it',
	getManyDescription: 'Get every time the recipient opened the message',
});

export const messageTrackedEventDescription = messageEventResource({
	resource: 'messageTrackedEvent',
	noun: 'tracked event',
	plural: 'tracked events',
	pathSegment: 'tracked_events',
	idName: 'trackedEventId',
	idLabel: 'Tracked Event',
	getDescription: 'Get one tracked event of a message (a sale or web hit the recipient made)',
	getManyDescription: 'Get the tracked events (sales, web hits) that followed the message',
});
