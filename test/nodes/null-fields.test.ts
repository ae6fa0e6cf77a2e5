// AWeber sends null in fields its reference does not mark nullable (docs/aweber-behaviour.md#nullable-fields).
// A proxy between the nodes and the sandbox sets fields of AWeber's answers to null; every output path the
// nodes have over such data, Simplify and the poll trigger must still give items, with the nulls as AWeber sent them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { sandboxCredentialData, useTestbed } from '../harness/aweber';
import { PollRunner } from '../harness/poll';
import { byId, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

/** Envelope fields of a collection page, kept so paging still works; everything in the entries may be null. */
const ENVELOPE = new Set(['entries', 'start', 'total_size', 'total_size_link', 'next_collection_link', 'prev_collection_link', 'resource_type_link']);

let proxy: Server;
let nullCredential: string;
/** Fields left as AWeber sent them (the rest of every entry is null). */
let keptFields: string[] = [];

function nulled(value: unknown): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
	const record = value as Record<string, unknown>;
	if (Array.isArray(record.entries)) {
		const out: Record<string, unknown> = {};
		for (const [name, field] of Object.entries(record)) out[name] = name === 'entries' ? (field as unknown[]).map(nulled) : ENVELOPE.has(name) ? field : null;
		return out;
	}
	return Object.fromEntries(Object.entries(record).map(([name, field]) => [name, keptFields.includes(name) ? field : null]));
}

beforeAll(async () => {
	proxy = createServer((incoming, outgoing) => {
		void (async () => {
			const chunks: Buffer[] = [];
			for await (const chunk of incoming) chunks.push(chunk as Buffer);
			const headers = { ...incoming.headers } as Record<string, string>;
			delete headers.host;
			delete headers.connection;
			const answer = await request(`${bed.sandbox.apiBaseUrl}${incoming.url}`, {
				method: incoming.method as 'GET',
				headers,
				body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
			});
			const text = (await answer.body.text()).split(bed.sandbox.apiBaseUrl).join(proxyUrl());
			const passed: Record<string, string> = {};
			for (const [name, value] of Object.entries(answer.headers)) {
				if (typeof value === 'string' && !['transfer-encoding', 'connection', 'keep-alive', 'content-length'].includes(name)) {
					passed[name] = value.split(bed.sandbox.apiBaseUrl).join(proxyUrl());
				}
			}
			const body = answer.statusCode < 300 && text.startsWith('{') ? JSON.stringify(nulled(JSON.parse(text))) : text;
			outgoing.writeHead(answer.statusCode, passed);
			outgoing.end(body);
		})();
	});
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	nullCredential = bed.harness.addCredential({ ...sandboxCredentialData(bed.sandbox), apiBaseUrl: proxyUrl() });
});
afterAll(async () => await new Promise((resolve) => proxy.close(resolve)));
beforeEach(() => {
	keptFields = [];
});

function proxyUrl(): string {
	return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

const byEmail = (email: string) => ({ __rl: true, mode: 'email', value: email });

const runOverNulls = async (type: string, parameters: IDataObject) =>
	await run(bed, type, { ...newsletterScope(bed), ...parameters }, { credentialId: nullCredential });

describe('every field of AWeber\'s answers null', () => {
	it.each([
		['Subscriber → Get Many, simplified', 'aWeberSubscriber', { operation: 'getAll', returnAll: true, simplify: true }],
		['Subscriber → Get Many, raw', 'aWeberSubscriber', { operation: 'getAll', returnAll: true, simplify: false }],
		['Subscriber → Get by email, simplified', 'aWeberSubscriber', { operation: 'get', subscriberId: byEmail('ada.lovelace@example.com'), simplify: true }],
		['Subscriber → Get Activity', 'aWeberSubscriber', { operation: 'getActivity', subscriberId: byId(100001), returnAll: true }],
		['Broadcast → Get Many, simplified', 'aWeberBroadcast', { operation: 'getAll', status: 'sent', returnAll: true, simplify: true }],
		['Broadcast → Get, simplified', 'aWeberBroadcast', { operation: 'get', broadcastId: byId(5001), simplify: true }],
		['Broadcast → Get Statistics', 'aWeberBroadcast', { operation: 'getStatistics', broadcastId: byId(5001), returnAll: true }, { broadcast_id: 5001 }],
		['Broadcast → Get Opens', 'aWeberBroadcast', { operation: 'getOpens', broadcastId: byId(5001), returnAll: true }],
		['Campaign → Get Many', 'aWeberCampaign', { resource: 'campaign', operation: 'getAll', returnAll: true }],
		['List → Get Many', 'aWeberList', { operation: 'getAll', returnAll: true }],
	])('%s outputs one item per entry, nulls kept', async (_name, type, parameters, addedByTheNode: IDataObject = {}) => {
		const result = await runOverNulls(type, parameters as IDataObject);
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThan(0);
		// Every field AWeber sent is there, null; Simplify invents no values (its stats_link is null without a link).
		for (const item of result.items) {
			for (const [name, value] of Object.entries(item)) expect([name, value]).toEqual([name, addedByTheNode[name] ?? null]);
		}
	});

	// The address is kept: a found entry whose address is not the one asked for is refused (answers.ts), nulls or not.
	it('Subscriber → Get Activity by email takes the ID from self_link when AWeber sends a null id', async () => {
		keptFields = ['self_link', 'email'];
		const result = await runOverNulls('aWeberSubscriber', { operation: 'getActivity', subscriberId: byEmail('ada.lovelace@example.com'), returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThan(0);
	});

	it('Subscriber → Get Activity by email says so when AWeber found the subscriber but sent neither id nor self_link', async () => {
		keptFields = ['email'];
		const result = await runOverNulls('aWeberSubscriber', { operation: 'getActivity', subscriberId: byEmail('ada.lovelace@example.com'), returnAll: true });
		expect(result.error?.message).toBe('AWeber found the subscriber "ada.lovelace@example.com" but gave no ID for it');
		expect(result.error?.description).toBe("AWeber answered the search without the subscriber's id and self_link. Choose the subscriber by ID instead.");
		expect(bed.sandbox.requests().filter((entry) => entry.query['ws.op'] === 'getActivity')).toEqual([]);
	});

	it('the poll trigger skips entries without their time and places its cursor without failing', async () => {
		const poll = new PollRunner(bed.harness, {
			type: 'aWeberListTrigger',
			credentialId: nullCredential,
			parameters: { event: 'subscriberAdded', accountId: byId(bed.sandbox.seed.accountId), listId: byId(bed.sandbox.seed.lists.newsletter), options: {} },
		});
		expect(await poll.poll()).toBeNull();
		expect(await poll.poll()).toBeNull();
		expect(await poll.poll({ mode: 'manual' })).toBeNull();
	});
});

describe('only the fields the poll trigger orders by kept', () => {
	it('emits new subscribers whose other fields are null, once each', async () => {
		keptFields = ['subscribed_at', 'id'];
		const poll = new PollRunner(bed.harness, {
			type: 'aWeberListTrigger',
			credentialId: nullCredential,
			parameters: { event: 'subscriberAdded', accountId: byId(bed.sandbox.seed.accountId), listId: byId(bed.sandbox.seed.lists.newsletter), options: {} },
		});
		expect(await poll.poll()).toBeNull();
		const token = bed.sandbox.issueToken().access_token;
		const added = await request(`${bed.sandbox.apiBaseUrl}/1.0/accounts/${bed.sandbox.seed.accountId}/lists/${bed.sandbox.seed.lists.newsletter}/subscribers`, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ email: 'null.fields@example.com' }),
		});
		expect(added.statusCode).toBe(201);
		await bed.sandbox.clock.advance(1000);
		const emitted = await poll.poll();
		expect(emitted).toEqual([expect.objectContaining({ id: expect.any(Number), subscribed_at: expect.any(String), email: null, name: null, custom_fields: null, tags: null })]);
		expect(await poll.poll()).toBeNull();
	});
});
