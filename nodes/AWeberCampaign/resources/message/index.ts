import type { INodeProperties } from 'n8n-workflow';

import { CAMPAIGNS } from '../campaign';
import { messageGetDescription } from './get';
import { messageGetManyDescription } from './getAll';

export const MESSAGES = `${CAMPAIGNS}/{campaignId}/messages`;
export const MESSAGE = `${MESSAGES}/{messageId}`;

export const messageOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['message'] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a message',
			description: "Get one subscriber's copy of a campaign: when it was sent and how often it was opened",
			routing: { request: { method: 'GET', url: MESSAGE } },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many messages',
			description: 'Get the messages (one per recipient) of a campaign',
			routing: { request: { method: 'GET', url: MESSAGES } },
		},
	],
	default: 'getAll',
};

export const messageDescription: INodeProperties[] = [messageOperations, ...messageGetManyDescription, ...messageGetDescription];
