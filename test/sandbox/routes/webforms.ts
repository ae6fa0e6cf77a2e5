// Sign-up forms: web forms and web form split tests with their components, per list and account-wide.
import { notFound } from '../errors';
import { httpEtag } from '../links';
import type { SplitTestComponentRecord, SplitTestRecord, WebFormRecord } from '../state';
import { intParam, listOf, ok, type ApiContext, type ApiResult, type ApiRoutes } from './context';
import { collectionPage } from './collectionPage';

const READ = 'list.read';

function percentage(part: number, whole: number): number {
	return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

function webFormFields(ctx: ApiContext, form: WebFormRecord): Record<string, unknown> {
	return {
		id: form.id,
		name: form.name,
		type: form.type,
		is_active: form.isActive,
		html_source_link: `https://forms.aweber.com/form/${String(form.id).slice(-2)}/${form.id}.html`,
		javascript_source_link: `https://forms.aweber.com/form/${String(form.id).slice(-2)}/${form.id}.js`,
		total_displays: form.totalDisplays,
		total_unique_displays: form.totalUniqueDisplays,
		total_submissions: form.totalSubmissions,
		conversion_percentage: percentage(form.totalSubmissions, form.totalDisplays),
		unique_conversion_percentage: percentage(form.totalSubmissions, form.totalUniqueDisplays),
		tags: [...form.tags],
		self_link: ctx.links.webForm(form.listId, form.id),
		resource_type_link: ctx.links.resourceType('web_form'),
	};
}

function webFormEntry(ctx: ApiContext, form: WebFormRecord): Record<string, unknown> {
	const fields = webFormFields(ctx, form);
	return { ...fields, http_etag: httpEtag(fields) };
}

function splitTestEntry(ctx: ApiContext, test: SplitTestRecord): Record<string, unknown> {
	const self = ctx.links.splitTest(test.listId, test.id);
	const fields = {
		id: test.id,
		name: test.name,
		is_active: test.isActive,
		javascript_source_link: `https://forms.aweber.com/form/split/${test.id}.js`,
		components_collection_link: `${self}/components`,
		self_link: self,
		resource_type_link: ctx.links.resourceType('web_form_split_test'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

function componentEntry(ctx: ApiContext, test: SplitTestRecord, component: SplitTestComponentRecord): Record<string, unknown> {
	const form = ctx.state.webForms.get(component.webFormId);
	const fields = {
		...(form === undefined ? {} : webFormFields(ctx, form)),
		id: component.id,
		weight: component.weight,
		web_form_link: ctx.links.webForm(test.listId, component.webFormId),
		self_link: `${ctx.links.splitTest(test.listId, test.id)}/components/${component.id}`,
		resource_type_link: ctx.links.resourceType('web_form_split_test_component'),
	};
	return { ...fields, http_etag: httpEtag(fields) };
}

function sortedById<T extends { id: number }>(items: Iterable<T>): T[] {
	return [...items].sort((a, b) => a.id - b.id);
}

export function webFormsOnAccount(ctx: ApiContext): ApiResult {
	return collectionPage(ctx, ctx.links.account(), sortedById(ctx.state.webForms.values()), 'web_form', (form) => webFormEntry(ctx, form));
}

export function splitTestsOnAccount(ctx: ApiContext): ApiResult {
	return collectionPage(ctx, ctx.links.account(), sortedById(ctx.state.splitTests.values()), 'web_form_split_test', (test) =>
		splitTestEntry(ctx, test),
	);
}

function splitTestOf(ctx: ApiContext): SplitTestRecord {
	const list = listOf(ctx);
	const test = ctx.state.splitTests.get(intParam(ctx, 'splitTestId', 'Split test'));
	if (test === undefined || test.listId !== list.id) throw notFound('Split test not found');
	return test;
}

export function registerWebFormRoutes(routes: ApiRoutes): void {
	const list = '/accounts/:accountId/lists/:listId';
	routes.add('GET', `${list}/web_forms`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const listId = listOf(ctx).id;
				const forms = sortedById(ctx.state.webForms.values()).filter((form) => form.listId === listId);
				return collectionPage(ctx, `${ctx.links.list(listId)}/web_forms`, forms, 'web_form', (form) => webFormEntry(ctx, form));
			},
		},
	});
	routes.add('GET', `${list}/web_forms/:webFormId`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const listId = listOf(ctx).id;
				const form = ctx.state.webForms.get(intParam(ctx, 'webFormId', 'Web form'));
				if (form === undefined || form.listId !== listId) throw notFound('Web form not found');
				return ok(webFormEntry(ctx, form));
			},
		},
	});
	routes.add('GET', `${list}/web_form_split_tests`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const listId = listOf(ctx).id;
				const tests = sortedById(ctx.state.splitTests.values()).filter((test) => test.listId === listId);
				return collectionPage(ctx, `${ctx.links.list(listId)}/web_form_split_tests`, tests, 'web_form_split_test', (test) =>
					splitTestEntry(ctx, test),
				);
			},
		},
	});
	routes.add('GET', `${list}/web_form_split_tests/:splitTestId`, {
		plain: { scope: READ, handle: (ctx) => ok(splitTestEntry(ctx, splitTestOf(ctx))) },
	});
	routes.add('GET', `${list}/web_form_split_tests/:splitTestId/components`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const test = splitTestOf(ctx);
				const url = `${ctx.links.splitTest(test.listId, test.id)}/components`;
				return collectionPage(ctx, url, test.components, 'web_form_split_test_component', (component) =>
					componentEntry(ctx, test, component),
				);
			},
		},
	});
	routes.add('GET', `${list}/web_form_split_tests/:splitTestId/components/:componentId`, {
		plain: {
			scope: READ,
			handle: (ctx) => {
				const test = splitTestOf(ctx);
				const component = test.components.find((candidate) => candidate.id === ctx.params.componentId);
				if (component === undefined) throw notFound('Split test component not found');
				return ok(componentEntry(ctx, test, component));
			},
		},
	});
}
