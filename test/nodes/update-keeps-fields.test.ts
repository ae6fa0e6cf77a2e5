// Updates never drop a field AWeber returned, and Create never outputs someone else as the subscriber it added
// (docs/aweber-behaviour.md#custom-fields-on-patch, #answers).
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { call } from '../sandbox/api-test-client';
import { apiCalls, byId, listPath, newsletterScope, run } from './email-nodes.helpers';

describe('AWeber Subscriber node: every field AWeber returned survives a write', () => {
	const bed = useTestbed();

	const subscriber = (parameters: IDataObject, options: { continueOnFail?: boolean } = {}) =>
		run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), ...parameters }, options);
	/** Grace Hopper, on Newsletter: Company, Plan and Birthday all set. */
	const grace = () => bed.sandbox.seed.subscribers.subscribed + 1;
	const gracePath = () => `${listPath(bed)}/subscribers/${grace()}`;
	const updateCompany = (value: string, options: { continueOnFail?: boolean } = {}) =>
		subscriber(
			{ operation: 'update', subscriberId: byId(grace()), updateFields: { customFields: { field: [{ name: 'Company', value }] } } },
			options,
		);
	const patches = () => apiCalls(bed).filter((entry) => entry.method === 'PATCH');
	const token = () => bed.sandbox.issueToken().access_token;

	it('sends a custom field AWeber returned as a number back unchanged', async () => {
		bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: gracePath(), rewrite: { customFields: { Birthday: 19610211 } } });
		const result = await updateCompany('Navy');
		expect(result.status).toBe('success');
		expect(patches()).toEqual([
			expect.objectContaining({ body: expect.objectContaining({ custom_fields: { Company: 'Navy', Plan: 'pro', Birthday: 19610211 } }) }),
		]);
	});

	it('sends a custom field AWeber returned as true or false back unchanged', async () => {
		bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: gracePath(), rewrite: { customFields: { Plan: true, Birthday: false } } });
		const result = await updateCompany('Navy');
		expect(result.status).toBe('success');
		expect(patches()).toEqual([
			expect.objectContaining({ body: expect.objectContaining({ custom_fields: { Company: 'Navy', Plan: true, Birthday: false } }) }),
		]);
	});

	it('leaves out a custom field AWeber returned empty, as one it returned null', async () => {
		bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: gracePath(), rewrite: { customFields: { Plan: '', Birthday: null } } });
		const result = await updateCompany('Navy');
		expect(result.status).toBe('success');
		expect(patches()).toEqual([expect.objectContaining({ body: expect.objectContaining({ custom_fields: { Company: 'Navy' } }) })]);
	});

	it('fails the item, naming the field and changing nothing, when AWeber returned a value it cannot send back', async () => {
		bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: gracePath(), rewrite: { customFields: { Plan: { tier: 'pro' } } } });
		const result = await updateCompany('Navy', { continueOnFail: true });
		const [failed] = result.output('Node Under Test');
		expect(failed.error?.message).toContain('"Plan"');
		expect(failed.error?.message).toBe('The custom field "Plan" holds an object in AWeber, which the update cannot send back');
		expect(failed.error?.description).toMatch(/^AWeber sets every custom field missing from an update to empty, so an update sends back every value the subscriber has, unchanged\. .*Nothing was changed in AWeber\. Set "Plan" to a text value/);
		expect(patches()).toEqual([]);
	});

	it.each(['__proto__', 'constructor', 'prototype', 'toString'])('keeps a custom field named %s through an update of another field', async (name) => {
		const created = await call(bed.sandbox, 'POST', `${listPath(bed).slice('/1.0'.length)}/custom_fields`, {
			token: token(),
			form: { 'ws.op': 'create', name },
		});
		expect(created.status).toBe(201);
		// A computed key makes `__proto__` an own property, as JSON.parse does for AWeber's answers.
		const set = await call(bed.sandbox, 'PATCH', gracePath().slice('/1.0'.length), {
			token: token(),
			json: { custom_fields: { Company: 'Cobol Works', Plan: 'pro', Birthday: '1961-02-11', [name]: 'kept' } },
		});
		expect(set.status).toBe(209);
		expect(Object.getOwnPropertyDescriptor(set.json().custom_fields, name)?.value).toBe('kept');

		expect((await updateCompany('Navy')).status).toBe('success');

		const after = (await call(bed.sandbox, 'GET', gracePath().slice('/1.0'.length), { token: token() })).json();
		expect(Object.getOwnPropertyDescriptor(after.custom_fields, name)?.value).toBe('kept');
		expect(after.custom_fields.Company).toBe('Navy');
	});

	it.each([
		['Create', 'create'],
		['Create or Update', 'upsert'],
	])('%s fails as an unexpected answer, saying the add happened, when the read after the add answers another subscriber', async (_name, operation) => {
		const other = (await call(bed.sandbox, 'GET', gracePath().slice('/1.0'.length), { token: token() })).json();
		bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: `${listPath(bed)}/subscribers/`, body: other });
		const result = await subscriber({ operation, email: 'just.added@example.com' }, { continueOnFail: true });
		const output = result.output('Node Under Test');
		expect(output).toHaveLength(1);
		expect(output[0].json).not.toHaveProperty('email', other.email);
		expect(output[0].error?.message).toContain("AWeber's answer was unexpected");
		expect(output[0].error?.description).toContain('just.added@example.com was added');
		// The add itself was carried out.
		expect(apiCalls(bed).filter((entry) => entry.method === 'POST')).toEqual([expect.objectContaining({ status: expect.any(Number) })]);
	});

	it('Create fails as an unexpected answer, naming the address and list, when the read after the add answers that address on another list', async () => {
		const { accountId, lists } = bed.sandbox.seed;
		const elsewhere = { id: 999, email: 'just.added@example.com', custom_fields: {}, self_link: `${bed.sandbox.apiBaseUrl}/1.0/accounts/${accountId}/lists/${lists.customers}/subscribers/999` };
		bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: `${listPath(bed)}/subscribers/`, body: elsewhere });
		const result = await subscriber({ operation: 'create', email: 'just.added@example.com' });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not the subscriber just.added@example.com on list " + lists.newsletter);
		expect(result.error?.description).toContain('reading the subscriber back after adding it');
		expect(result.error?.description).toContain(
			'The add itself was carried out: just.added@example.com was added to the list (or updated, if already on it). Do not run the step again for this item; read the subscriber with Get to see it.',
		);
	});

	it.each([
		['JSON null', () => null],
		['no subscriber (no ID, no custom fields)', (link: string) => ({ email: 'just.added@example.com', self_link: link })],
	])('Create fails as an unexpected answer when the read after the add answers %s', async (_case, body: (link: string) => unknown) => {
		const link = `${bed.sandbox.apiBaseUrl}${listPath(bed)}/subscribers/999`;
		bed.sandbox.faults.next(1, 'answer', { method: 'GET', pathPrefix: `${listPath(bed)}/subscribers/`, body: body(link) });
		const result = await subscriber({ operation: 'create', email: 'just.added@example.com' });
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`AWeber's answer was unexpected: it is not the subscriber just.added@example.com on list ${bed.sandbox.seed.lists.newsletter}`);
	});

	it('Create outputs the subscriber it added when the read after the add answers that subscriber', async () => {
		const result = await subscriber({ operation: 'create', email: 'just.added@example.com', simplify: false });
		expect(result.items).toEqual([expect.objectContaining({ email: 'just.added@example.com' })]);
	});
});
