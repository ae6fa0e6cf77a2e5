import { toolDescriptions } from '../shared/toolDescription';

/** What an AI agent reads about each custom field operation (docs/ai-agents.md). */
export const customFieldToolDescriptions = toolDescriptions(undefined, {
	create: {
		does: 'Add a custom field (an extra subscriber attribute such as "Company") to a list',
		needs: 'the list and the field name',
		changes: 'adds a field to every subscriber of the list',
		returns: 'the new custom field: ID, name and whether subscribers can change it',
	},
	delete: {
		does: 'Delete a custom field from a list',
		needs: 'the list and the custom field ID',
		changes: 'deletes the field AND every subscriber\'s value for it permanently; this cannot be undone',
		returns: 'a confirmation that the field was deleted',
	},
	get: {
		does: 'Read one custom field of a list',
		needs: 'the list and the custom field ID',
		returns: 'the custom field: ID, name and whether subscribers can change it',
	},
	getAll: {
		does: 'List the custom fields of a list, e.g. to learn the names to use when adding subscribers',
		needs: 'the list',
		returns: 'the custom fields (ID, name), up to the limit set',
	},
	update: {
		does: 'Rename a custom field, or choose whether subscribers may change it',
		needs: 'the list, the custom field ID and the change',
		changes: 'renames or changes the field for every subscriber of the list',
		returns: 'the updated custom field',
	},
});
