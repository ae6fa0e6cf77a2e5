// Custom fields: read (list.read), create with ws.op=create, update (209), delete (list.write).
import { badRequest, missingArgument } from '../errors';
import { httpEtag } from '../links';
import type { CustomFieldRecord } from '../state';
import {
	booleanField,
	checkLength,
	contentModified,
	created,
	intParam,
	listOf,
	ok,
	requireJsonOrForm,
	stringField,
	type ApiContext,
	type ApiResult,
	type ApiRoutes,
} from './context';
import { collectionPage } from './collectionPage';

const READ = 'list.read';
const WRITE = 'list.write';
/** AWeber allows 25 custom fields per list. */
const MAX_FIELDS_PER_LIST = 25;
const MAX_NAME_LENGTH = 100;

function customFieldEntry(ctx: ApiContext, field: CustomFieldRecord): Record<string, unknown> {
	const fields = {
		id: field.id,
		name: field.name,
		is_subscriber_updateable: field.isSubscriberUpdateable,
		self_link: ctx.links.customField(field.listId, field.id),
		resource_type_link: ctx.links.resourceType('custom_field'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

function fieldOf(ctx: ApiContext): CustomFieldRecord {
	return ctx.state.customField(listOf(ctx).id, intParam(ctx, 'customFieldId', 'Custom field'));
}

function checkName(ctx: ApiContext, listId: number, name: string, except?: CustomFieldRecord): string {
	const trimmed = name.trim();
	if (trimmed === '') throw missingArgument('name');
	checkLength('name', trimmed, MAX_NAME_LENGTH);
	const clash = ctx.state
		.customFieldsOf(listId)
		.find((field) => field !== except && field.name.toLowerCase() === trimmed.toLowerCase());
	if (clash !== undefined) throw badRequest(`A custom field named "${clash.name}" already exists on this list.`);
	return trimmed;
}

function createCustomField(ctx: ApiContext): ApiResult {
	requireJsonOrForm(ctx);
	const list = listOf(ctx);
	const name = stringField(ctx.body, 'name');
	if (name === undefined) throw missingArgument('name');
	const checkedName = checkName(ctx, list.id, name);
	if (ctx.state.customFieldsOf(list.id).length >= MAX_FIELDS_PER_LIST) {
		throw badRequest(`A list can have at most ${MAX_FIELDS_PER_LIST} custom fields.`);
	}
	const field: CustomFieldRecord = {
		id: ctx.state.nextId('customField'),
		listId: list.id,
		name: checkedName,
		isSubscriberUpdateable: booleanField(ctx.body, 'is_subscriber_updateable') ?? false,
	};
	ctx.state.customFields.set(field.id, field);
	return created(ctx.links.customField(list.id, field.id));
}

function updateCustomField(ctx: ApiContext): ApiResult {
	requireJsonOrForm(ctx);
	const field = fieldOf(ctx);
	for (const key of Object.keys(ctx.body)) {
		if (key !== 'name' && key !== 'is_subscriber_updateable') {
			throw badRequest(`${key}: You tried to modify a nonexistent attribute.`, 'BadRequestError');
		}
	}
	const name = stringField(ctx.body, 'name');
	const updateable = booleanField(ctx.body, 'is_subscriber_updateable');
	if (name !== undefined) field.name = checkName(ctx, field.listId, name, field);
	if (updateable !== undefined) field.isSubscriberUpdateable = updateable;
	return contentModified(customFieldEntry(ctx, field));
}

export function registerCustomFieldRoutes(routes: ApiRoutes): void {
	const collection = '/accounts/:accountId/lists/:listId/custom_fields';
	const entry = `${collection}/:customFieldId`;
	routes.add('GET', collection, {
		plain: {
			scope: READ,
			handle: (ctx) =>
				collectionPage(ctx, `${ctx.links.list(listOf(ctx).id)}/custom_fields`, ctx.state.customFieldsOf(listOf(ctx).id), 'custom_field', (field) => customFieldEntry(ctx, field)),
		},
	});
	// AWeber requires ws.op=create in the form body (docs/aweber-behaviour.md#conventions).
	routes.add('POST', collection, { named: { create: { scope: WRITE, handle: createCustomField } } });
	routes.add('GET', entry, { plain: { scope: READ, handle: (ctx) => ok(customFieldEntry(ctx, fieldOf(ctx))) } });
	routes.add('PATCH', entry, { plain: { scope: WRITE, handle: updateCustomField } });
	routes.add('DELETE', entry, {
		plain: {
			scope: WRITE,
			handle: (ctx) => {
				const field = fieldOf(ctx);
				ctx.state.customFields.delete(field.id);
				for (const subscriber of ctx.state.subscribersOf(field.listId)) subscriber.customFields.delete(field.id);
				return { status: 200 };
			},
		},
	});
}
