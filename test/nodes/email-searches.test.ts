import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { SEED_EXTRAS } from '../sandbox';
import { byId, newsletterScope, searchPicker } from './email-nodes.helpers';

const bed = useTestbed({ resetEachTest: false });

/** Runs a picker's search as the n8n editor does: with the node's current parameters. */
async function search(type: string, method: string, parameters: IDataObject, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchPicker(bed, type, method, parameters, filter, paginationToken);
}

describe('pickers of the broadcast, campaign, segment, webform and landing-page nodes', () => {
	it('offers the drafts when scheduling, then the sent broadcasts when reading statistics', async () => {
		const { seed } = bed.sandbox;
		const drafts = await search('aWeberBroadcast', 'searchBroadcasts', { ...newsletterScope(bed), operation: 'schedule' });
		expect(drafts.results.map((result) => result.value)).toEqual([String(seed.broadcasts.draft)]);
		expect(drafts.paginationToken).toBeUndefined();
		const sent = await search('aWeberBroadcast', 'searchBroadcasts', { ...newsletterScope(bed), operation: 'getStatistics' });
		expect(sent.results.map((result) => result.value)).toEqual([String(seed.broadcasts.sent), String(SEED_EXTRAS.welcomeBroadcast)]);
	});

	it('goes through every status, one page token per status, when any broadcast will do', async () => {
		const parameters = { ...newsletterScope(bed), operation: 'get' };
		const values: unknown[] = [];
		let page = await search('aWeberBroadcast', 'searchBroadcasts', parameters);
		values.push(...page.results.map((result) => result.value));
		while (page.paginationToken) {
			page = await search('aWeberBroadcast', 'searchBroadcasts', parameters, undefined, page.paginationToken);
			values.push(...page.results.map((result) => result.value));
		}
		const { broadcasts } = bed.sandbox.seed;
		expect(values).toEqual([broadcasts.draft, broadcasts.scheduled, broadcasts.sent, SEED_EXTRAS.welcomeBroadcast].map(String));
	});

	it('filters by the typed text', async () => {
		const found = await search('aWeberBroadcast', 'searchBroadcasts', { ...newsletterScope(bed), operation: 'getOpens' }, 'spring');
		expect(found.results).toEqual([
			expect.objectContaining({ value: String(bed.sandbox.seed.broadcasts.sent), name: expect.stringMatching(/^Spring collection is here \(sent/) }),
		]);
	});

	it('offers campaigns with their type letter, and the messages of the chosen campaign', async () => {
		const { seed } = bed.sandbox;
		const campaigns = await search('aWeberCampaign', 'searchCampaigns', newsletterScope(bed));
		expect(campaigns.results.map((result) => result.value)).toEqual([
			seed.campaigns.broadcast,
			`b${SEED_EXTRAS.welcomeBroadcast}`,
			seed.campaigns.followUp,
			SEED_EXTRAS.followUpTips,
		]);
		expect(campaigns.results[2].name).toBe('Follow-up #1: Welcome aboard');
		const messages = await search('aWeberCampaign', 'searchMessages', {
			...newsletterScope(bed),
			resource: 'message',
			operation: 'get',
			campaignId: byId(seed.campaigns.broadcast),
		});
		expect(messages.results).toContainEqual(expect.objectContaining({ value: String(seed.messages.broadcast) }));
	});

	it('asks for the campaign first when none is chosen', async () => {
		await expect(search('aWeberCampaign', 'searchMessages', { ...newsletterScope(bed), resource: 'message', operation: 'get' })).rejects.toThrow('Choose a Campaign first');
	});

	it('leaves split-test segments out of the broadcast segment picker only', async () => {
		const all = await search('aWeberSegment', 'searchSegments', newsletterScope(bed));
		expect(all.results.map((result) => result.value)).toContain(String(bed.sandbox.seed.segments.splitTest));
		const forBroadcast = await search('aWeberBroadcast', 'searchBroadcastSegments', newsletterScope(bed));
		expect(forBroadcast.results.map((result) => result.value)).toEqual(['601', String(SEED_EXTRAS.vipSegment)]);
	});

	it('offers web forms, split tests, their components and landing pages of the chosen list', async () => {
		const { seed } = bed.sandbox;
		const forms = await search('aWeberWebform', 'searchWebForms', newsletterScope(bed));
		expect(forms.results[0]).toEqual(expect.objectContaining({ name: 'Sidebar signup (inline)', value: '801' }));
		const tests = await search('aWeberWebform', 'searchSplitTests', newsletterScope(bed));
		expect(tests.results.map((result) => result.value)).toEqual([String(seed.splitTests.newsletter), '902']);
		const components = await search('aWeberWebform', 'searchSplitTestComponents', {
			...newsletterScope(bed),
			resource: 'splitTestComponent',
			operation: 'get',
			splitTestId: byId(seed.splitTests.newsletter),
		});
		expect(components.results.map((result) => result.value)).toEqual([seed.splitTestComponents.first, seed.splitTestComponents.second]);
		const pages = await search('aWeberLandingPage', 'searchLandingPages', newsletterScope(bed));
		expect(pages.results[0]).toEqual(expect.objectContaining({ value: seed.landingPages.newsletter, name: 'Spring launch (published)' }));
	});
});
