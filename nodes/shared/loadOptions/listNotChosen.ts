import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

/**
 * What a box that lists the chosen list's tags or custom fields shows before a list is chosen: one option
 * saying what to do, as n8n's own nodes do, rather than an error. The fields that use it declare
 * `loadOptionsDependsOn` on the list, so n8n loads the real options as soon as one is chosen.
 */
export const chooseListFirst: INodePropertyOptions[] = [{ name: 'Choose a List First', value: '' }];

/** Whether the node has no list chosen yet (the List picker is empty). */
export function listNotChosen(context: ILoadOptionsFunctions): boolean {
	let chosen: unknown;
	try {
		chosen = context.getNodeParameter('listId', undefined, { extractValue: true });
	} catch {
		return true;
	}
	if (typeof chosen === 'number') return false;
	return typeof chosen !== 'string' || chosen.trim() === '';
}

/** `typeOptions.loadOptionsDependsOn` of the boxes that list the chosen list's options: reload when it changes. */
export const reloadWhenListChanges = ['accountId.value', 'listId.value'];
