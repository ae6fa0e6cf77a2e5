import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { SEED_EXTRAS } from '../sandbox';
import { byId, listPath, newsletterScope, searchPicker } from './email-nodes.helpers';

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
		// Bounded: a token that led back to a status already read would page forever.
		for (let pages = 1; page.paginationToken && pages < 10; pages++) {
			page = await search('aWeberBroadcast', 'searchBroadcasts', parameters, undefined, page.paginationToken);
			values.push(...page.results.map((result) => result.value));
		}
		expect(page.paginationToken).toBeUndefined();
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

describe('what each picker entry says', () => {
	const scope = () => newsletterScope(bed);
	const names = (found: INodeListSearchResult) => found.results.map((result) => result.name);

	it('a broadcast: its subject, status and when it was sent or is scheduled, to the minute', async () => {
		const { seed } = bed.sandbox;
		expect(names(await search('aWeberBroadcast', 'searchBroadcasts', { ...scope(), operation: 'update' }))).toEqual(['Autumn draft (draft)']);
		const scheduled = await search('aWeberBroadcast', 'searchBroadcasts', { ...scope(), operation: 'cancel' });
		expect(scheduled.results).toEqual([
			{ name: expect.stringMatching(/^Summer preview \(scheduled \d{4}-\d{2}-\d{2}T\d{2}:\d{2}\)$/), value: String(seed.broadcasts.scheduled) },
		]);
		expect(names(await search('aWeberBroadcast', 'searchBroadcasts', { ...scope(), operation: 'getClicks' }))).toEqual([
			'Spring collection is here (sent 2025-02-15T09:00)',
			'Welcome to the Sandbox Outfitters newsletter (sent 2025-01-26T09:00)',
		]);
	});

	it('a broadcast AWeber gives without subject, status or time, or in another status than the one asked', async () => {
		bed.sandbox.faults.next(1, 'answer', {
			body: {
				entries: [
					{ broadcast_id: 1, self_link: 'x' },
					{ broadcast_id: 2, subject: 'Going out', status: 'sending', sent_at: null, scheduled_for: '2025-03-01T10:30:45+00:00', self_link: 'x' },
				],
			},
			pathPrefix: `${listPath(bed)}/broadcasts`,
		});
		const found = await search('aWeberBroadcast', 'searchBroadcasts', { ...scope(), operation: 'getStatistics' });
		expect(found.results.map(({ name, value }) => ({ name, value }))).toEqual([
			{ name: '(no subject) (sent)', value: '1' },
			{ name: 'Going out (sending 2025-03-01T10:30)', value: '2' },
		]);
	});

	it('a campaign: a sent broadcast with its day, a follow-up with its number', async () => {
		const campaigns = await search('aWeberCampaign', 'searchCampaigns', scope());
		expect(names(campaigns)).toEqual([
			'Broadcast: Spring collection is here (sent 2025-02-15)',
			'Broadcast: Welcome to the Sandbox Outfitters newsletter (sent 2025-01-26)',
			'Follow-up #1: Welcome aboard',
			'Follow-up #2: Getting the most out of your gear',
		]);
	});

	it('a campaign AWeber gives without subject, number or sending time', async () => {
		bed.sandbox.faults.next(1, 'answer', {
			body: {
				entries: [
					{ id: 7, campaign_type: 'b', sent_at: null, self_link: 'x' },
					{ id: 8, campaign_type: 'f', subject: 'Tips', self_link: 'x' },
				],
			},
			pathPrefix: `${listPath(bed)}/campaigns`,
		});
		const campaigns = await search('aWeberCampaign', 'searchCampaigns', scope());
		expect(campaigns.results).toEqual([
			{ name: 'Broadcast: (no subject)', value: 'b7' },
			{ name: 'Follow-up #?: Tips', value: 'f8' },
		]);
	});

	it('a message: its ID, when it was sent and how often it was opened', async () => {
		const parameters = { ...scope(), resource: 'message', operation: 'get', campaignId: byId(bed.sandbox.seed.campaigns.followUp) };
		expect(names(await search('aWeberCampaign', 'searchMessages', parameters)).slice(0, 3)).toEqual([
			'Message 70021 sent 2025-01-06T10:00:00+00:00 (2 opens)',
			'Message 70022 sent 2025-01-07T10:07:00+00:00 (1 open)',
			'Message 70023 sent 2025-01-08T10:14:00+00:00',
		]);
		bed.sandbox.faults.next(1, 'answer', { body: { entries: [{ id: 9, event_time: null, total_opens: 0, self_link: 'x' }] }, pathPrefix: listPath(bed) });
		expect((await search('aWeberCampaign', 'searchMessages', parameters)).results).toEqual([{ name: 'Message 9', value: '9' }]);
	});

	it('a split test says when it is inactive; a component gives its share of displays', async () => {
		const { seed } = bed.sandbox;
		expect(names(await search('aWeberWebform', 'searchSplitTests', scope()))).toEqual(['Sidebar vs popup', 'Sidebar vs lightbox (ended) (inactive)']);
		const parameters = { ...scope(), resource: 'splitTestComponent', operation: 'get', splitTestId: byId(seed.splitTests.newsletter) };
		expect(names(await search('aWeberWebform', 'searchSplitTestComponents', parameters))).toEqual(['Sidebar signup (50%)', 'Exit popup (50%)']);
		bed.sandbox.faults.next(1, 'answer', { body: { entries: [{ id: '901-9', self_link: 'x' }] }, pathPrefix: listPath(bed) });
		expect((await search('aWeberWebform', 'searchSplitTestComponents', parameters)).results).toEqual([{ name: '901-9', value: '901-9' }]);
	});

	it('a segment used in split tests says so', async () => {
		expect(names(await search('aWeberSegment', 'searchSegments', scope()))).toEqual([
			'Active Subscribers',
			'Split test: subject A/B (split test)',
			'VIP readers',
		]);
	});
});

describe('typing in a picker', () => {
	const scope = () => newsletterScope(bed);

	it('finds names in any case, ignoring spaces around what is typed', async () => {
		const found = await search('aWeberCampaign', 'searchCampaigns', scope(), '  WELCOME ');
		expect(found.results.map((result) => result.value)).toEqual([`b${SEED_EXTRAS.welcomeBroadcast}`, bed.sandbox.seed.campaigns.followUp]);
	});

	it('finds an entry by its ID, typed in any case', async () => {
		const followUp = bed.sandbox.seed.campaigns.followUp;
		const found = await search('aWeberCampaign', 'searchCampaigns', scope(), followUp.toUpperCase());
		expect(found.results).toEqual([{ name: 'Follow-up #1: Welcome aboard', value: followUp }]);
	});
});

describe('the integration pickers', () => {
	const broadcastScope = () => ({ ...newsletterScope(bed), operation: 'create' });

	it('offer only Facebook integrations, or only Twitter ones, for a broadcast', async () => {
		expect((await search('aWeberBroadcast', 'searchFacebookIntegrations', broadcastScope())).results).toEqual([
			{ name: 'facebook (Sandbox Outfitters)', value: '301' },
		]);
		expect((await search('aWeberBroadcast', 'searchTwitterIntegrations', broadcastScope())).results).toEqual([
			{ name: 'twitter (@sandboxoutfit)', value: '302' },
		]);
	});

	it('finds integrations by what is typed, in any case', async () => {
		const parameters = { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) };
		expect((await search('aWeberIntegration', 'searchIntegrations', parameters, 'OutFitters')).results.map((result) => result.value)).toEqual([
			'301',
			'303',
		]);
		expect((await search('aWeberIntegration', 'searchIntegrations', parameters, 'nothing like it')).results).toEqual([]);
	});

	it('find an integration by its ID, or by a name with spaces around it, as the other pickers do', async () => {
		const parameters = { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) };
		expect((await search('aWeberIntegration', 'searchIntegrations', parameters, ' 302 ')).results).toEqual([{ name: 'twitter (@sandboxoutfit)', value: '302' }]);
		expect((await search('aWeberIntegration', 'searchIntegrations', parameters, '  @SandboxOutfit ')).results.map((result) => result.value)).toEqual(['302']);
	});

	it('names an integration without login by its service only', async () => {
		bed.sandbox.faults.next(1, 'answer', {
			body: { entries: [{ id: 304, service_name: 'Facebook', self_link: 'x' }] },
			pathPrefix: `/1.0/accounts/${bed.sandbox.seed.accountId}/integrations`,
		});
		expect((await search('aWeberBroadcast', 'searchFacebookIntegrations', broadcastScope())).results).toEqual([{ name: 'Facebook', value: '304' }]);
	});
});

describe('the broadcast picker\'s pages', () => {
	const parameters = () => ({ ...newsletterScope(bed), operation: 'get' });

	it('follows AWeber\'s next page within a status, then goes on to the next status', async () => {
		bed.sandbox.pages.cap(1);
		try {
			const values: unknown[] = [];
			const tokens: unknown[] = [];
			let page = await search('aWeberBroadcast', 'searchBroadcasts', parameters());
			values.push(...page.results.map((result) => result.value));
			for (let pages = 1; page.paginationToken && pages < 10; pages++) {
				tokens.push(page.paginationToken);
				page = await search('aWeberBroadcast', 'searchBroadcasts', parameters(), undefined, page.paginationToken as string);
				values.push(...page.results.map((result) => result.value));
			}
			expect(page.paginationToken).toBeUndefined();
			const { broadcasts } = bed.sandbox.seed;
			expect(values).toEqual([broadcasts.draft, broadcasts.scheduled, broadcasts.sent, SEED_EXTRAS.welcomeBroadcast].map(String));
			expect(tokens).toEqual(['status:scheduled', 'status:sent', expect.stringMatching(/\/broadcasts\?status=sent&ws\.start=1&ws\.size=1$/)]);
		} finally {
			bed.sandbox.pages.cap(undefined);
		}
	});

	it('starts again from the first status for a status token it does not know', async () => {
		const page = await search('aWeberBroadcast', 'searchBroadcasts', parameters(), undefined, 'status:bogus');
		expect(page.results.map((result) => result.value)).toEqual([String(bed.sandbox.seed.broadcasts.draft)]);
		expect(page.paginationToken).toBe('status:scheduled');
	});

	it('takes a next page link without status as a page of the first status', async () => {
		const path = `${listPath(bed)}/broadcasts`;
		bed.sandbox.faults.next(1, 'answer', { body: { entries: [{ broadcast_id: 3, subject: 'Later', self_link: 'x' }] }, pathPrefix: path });
		const page = await search('aWeberBroadcast', 'searchBroadcasts', parameters(), undefined, `${bed.sandbox.apiBaseUrl}${path}?ws.start=1&ws.size=1`);
		expect(page).toEqual({ results: [{ name: 'Later (draft)', value: '3', url: undefined }], paginationToken: 'status:scheduled' });
	});
});
