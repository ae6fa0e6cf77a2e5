import type { IDataObject, IExecutePaginationFunctions, INodeExecutionData } from 'n8n-workflow';

import { customFieldNamesOfList, matchField, readCustomFieldValues, unknownCustomField } from '../../../shared/customFields';
import { asNodeError } from '../../../shared/errors';
import { checkEmailAddress, describeType, invalidField } from '../../../shared/fieldValidation';
import { errorOutputItem, sendsErrorsToErrorOutput } from '../../../shared/itemFailures';
import { normalEmail, normalName, normalTags } from '../../../shared/normalForm';
import { runStateOf } from '../../../shared/runState';
import { notify } from '../../../shared/waits';

/*
 * "Shape Source for Comparison": a source contact in exactly the shape Get Many's "Shape for Comparison" gives a
 * subscriber (normalForm.ts), the list's custom fields read once per run, no request per item. An address given on
 * several items is output once, from its last item ("the last row wins"), and the run says which addresses were
 * given more than once (n8n's log and a manual run's browser console, waits.ts). That relies on routing.ts A11:
 * every item of the run reaches this function before the one read of the custom field names is answered.
 */

interface SourceContact {
	email: string;
	name: string;
	tags: string[];
	given: Array<{ name: string; value: string }>;
}

function readSourceContact(context: IExecutePaginationFunctions): SourceContact {
	const email = normalEmail(checkEmailAddress(context, context.getNodeParameter('email', ''), 'Email'));
	const name = context.getNodeParameter('name', '') as unknown;
	if (name !== undefined && name !== null && !['string', 'number', 'boolean'].includes(typeof name)) {
		throw invalidField(context, 'Name', `must be text, not ${describeType(name)}`);
	}
	const tags = normalTags(context, context.getNodeParameter('tags', []), 'Tags');
	return { email, name: normalName(name), tags, given: readCustomFieldValues(context, 'customFields') };
}

/** Every custom field of the list, spelled as the list spells it, "" where the source gives nothing. */
function everyCustomField(context: IExecutePaginationFunctions, known: string[], given: SourceContact['given']): IDataObject {
	const fields: IDataObject = Object.fromEntries(known.map((name) => [name, '']));
	const ignoreUnknown = context.getNodeParameter('options.ignoreUnknownCustomFields', false) === true;
	for (const { name, value } of given) {
		const field = matchField(known, name, false);
		if (field !== undefined) fields[field] = value;
		else if (!ignoreUnknown) throw unknownCustomField(context, name, known, false);
	}
	return fields;
}

/** The addresses given on more than one item, with their item numbers (1-based, as the editor shows them). */
function duplicatedAddresses(byEmail: Map<string, number[]>): string[] {
	return [...byEmail].filter(([, indexes]) => indexes.length > 1).map(([email, indexes]) => `${email} (items ${[...indexes].sort((a, b) => a - b).map((index) => index + 1).join(', ')})`);
}

/** The operation's routed entry (routing.operations.pagination): reads its item, sends nothing of its own. */
export async function shapeSourceContact(this: IExecutePaginationFunctions): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	const sources = runStateOf(this)?.sourceEmails ?? { byEmail: new Map<string, number[]>(), noticed: false };
	const { byEmail } = sources;
	try {
		// Read and registered before the first await (A11): by the time the list's field names arrive, every item is in.
		const contact = readSourceContact(this);
		const indexes = byEmail.get(contact.email);
		if (indexes) indexes.push(itemIndex);
		else byEmail.set(contact.email, [itemIndex]);
		const known = await customFieldNamesOfList(this);
		// Once per run, by the first item the answer reaches: every address is known by then.
		if (!sources.noticed) {
			sources.noticed = true;
			const duplicated = duplicatedAddresses(byEmail);
			if (duplicated.length > 0) {
				notify(this, 'warn', `AWeber: ${duplicated.length} address(es) given on more than one item; each is output once, from its last item: ${duplicated.join('; ')}`);
			}
		}
		// The last row wins: an earlier item of the same address outputs nothing.
		if (Math.max(...(byEmail.get(contact.email) ?? [itemIndex])) !== itemIndex) return [];
		const shaped = { email: contact.email, name: contact.name, tags: contact.tags, custom_fields: everyCustomField(this, known, contact.given) };
		return [{ json: shaped, pairedItem: { item: itemIndex } }];
	} catch (error) {
		if (sendsErrorsToErrorOutput(this)) return [errorOutputItem(this, error, itemIndex)];
		throw asNodeError(this.getNode(), error, itemIndex, undefined, false);
	}
}
