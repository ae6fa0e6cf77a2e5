import type { INodeProperties } from 'n8n-workflow';

/** AWeber lists broadcasts by one status at a time (`status` is required); sending ones count as sent. */
export function broadcastStatusField(): INodeProperties {
	return {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		required: true,
		options: [
			{ name: 'Draft', value: 'draft', description: 'Drafts created through the API (AWeber lists no other drafts)' },
			{ name: 'Scheduled', value: 'scheduled' },
			{ name: 'Sent', value: 'sent', description: 'Sent broadcasts and those being sent' },
		],
		default: 'sent',
		routing: { send: { type: 'query', property: 'status' } },
	};
}
