// A picker that lists a whole collection (the Integration picker) reads every page of it, and checks the links it
// follows like any other (nodes/shared/collections.ts, docs/aweber-behaviour.md#collections).
import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, searchPicker } from '../nodes/email-nodes.helpers';

const bed = useTestbed();

const integrationsPath = () => `/1.0/accounts/${bed.sandbox.seed.accountId}/integrations`;
const searchIntegrations = async () =>
	await searchPicker(bed, 'aWeberIntegration', 'searchIntegrations', { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) });

describe("The Integration picker reads every page of the account's integrations", () => {
	it('lists all three when AWeber answers one a page, asking for each page once', async () => {
		bed.sandbox.pages.cap(1);
		const found = await searchIntegrations();
		expect(found.results).toEqual([
			{ name: 'facebook (Sandbox Outfitters)', value: '301' },
			{ name: 'twitter (@sandboxoutfit)', value: '302' },
			{ name: 'paypal (payments@sandbox-outfitters.example)', value: '303' },
		]);
		const pages = apiCalls(bed).map((call) => `${call.path}?ws.start=${call.query['ws.start'] ?? 0}&ws.size=${call.query['ws.size']}`);
		expect(pages.sort()).toEqual([0, 1, 2].map((start) => `${integrationsPath()}?ws.start=${start}&ws.size=${start === 0 ? 100 : 1}`));
	});

	it('asks again for a page AWeber answered with a 503, as for any read', async () => {
		bed.sandbox.faults.next(1, '503', { pathPrefix: integrationsPath() });
		const found = await searchIntegrations();
		expect(found.results.map((result) => result.value)).toEqual(['301', '302', '303']);
		expect(apiCalls(bed).map((call) => `${call.method} ${call.status}`)).toEqual(['GET 503', 'GET 200']);
	});

	it('refuses a next page on another host, naming where the link came from, and sends nothing there', async () => {
		bed.sandbox.pages.cap(1);
		const elsewhere = `https://elsewhere.example${integrationsPath()}?ws.start=1&ws.size=1`;
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { nextCollectionLink: elsewhere }, pathPrefix: integrationsPath() });
		const search = searchIntegrations();
		await expect(search).rejects.toThrow('Refused to send the AWeber credential to https://elsewhere.example');
		await expect(search).rejects.toMatchObject({
			description: expect.stringMatching(/^The next_collection_link \(or Link header\) of an AWeber page points to https:\/\/elsewhere\.example/),
		});
		expect(apiCalls(bed)).toHaveLength(1);
	});

	it.each([
		['the first page', {}, 'a collection'],
		['a further page', { 'ws.start': '1' }, 'the next page of a collection'],
	])('takes %s without entries for an unexpected answer, naming the read, not for the end', async (_case, query, read) => {
		bed.sandbox.pages.cap(1);
		bed.sandbox.faults.next(1, 'rewrite', { rewrite: { dropEntries: true }, pathPrefix: integrationsPath(), query });
		const search = searchIntegrations();
		await expect(search).rejects.toThrow("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		await expect(search).rejects.toMatchObject({ description: expect.stringMatching(new RegExp(`^While reading ${read}, AWeber answered a JSON object`)) });
	});
});
