import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { SEED_EXTRAS } from '../sandbox';
import { apiCalls, byId, byUrl, callLines, listPath, newsletterScope, registerSmallPageVariant, run } from './email-nodes.helpers';

const bed = useTestbed();

const campaignNode = (parameters: IDataObject, type = 'aWeberCampaign') =>
	run(bed, type, { ...newsletterScope(bed), ...parameters });

describe('AWeber Campaign node: campaigns', () => {
	it('gets the campaigns of a list: sent broadcasts newest first, then follow-ups by number', async () => {
		const { seed } = bed.sandbox;
		const result = await campaignNode({ resource: 'campaign', operation: 'getAll', returnAll: true });
		expect(result.items.map((item) => `${item.campaign_type}${item.id}`)).toEqual([
			seed.campaigns.broadcast,
			`b${SEED_EXTRAS.welcomeBroadcast}`,
			seed.campaigns.followUp,
			SEED_EXTRAS.followUpTips,
		]);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${listPath(bed)}/campaigns`, query: { 'ws.size': '100' } }),
		]);
	});

	it('finds the campaigns of one type with AWeber\'s find operation', async () => {
		const result = await campaignNode({ resource: 'campaign', operation: 'find', campaignType: 'f', returnAll: true });
		expect(result.items.map((item) => item.campaign_type)).toEqual(['f', 'f']);
		expect(result.items[0]).toMatchObject({ message_number: 1 });
		expect(apiCalls(bed)[0].query).toEqual({ 'ws.op': 'find', campaign_type: 'f', 'ws.size': '100' });
	});

	it('gets a campaign by its typed ID or by its URL', async () => {
		const { seed } = bed.sandbox;
		const byTypedId = await campaignNode({ resource: 'campaign', operation: 'get', campaignId: byId(seed.campaigns.followUp) });
		expect(byTypedId.items).toEqual([expect.objectContaining({ campaign_type: 'f', subject: 'Welcome aboard' })]);
		const link = `${bed.sandbox.apiBaseUrl}${listPath(bed)}/campaigns/${seed.campaigns.broadcast}`;
		const byLink = await campaignNode({ resource: 'campaign', operation: 'get', campaignId: byUrl(link) });
		expect(byLink.items).toEqual([expect.objectContaining({ campaign_type: 'b', self_link: link })]);
		expect(callLines(bed)).toEqual([
			`GET ${listPath(bed)}/campaigns/${seed.campaigns.followUp}`,
			`GET ${listPath(bed)}/campaigns/${seed.campaigns.broadcast}`,
		]);
	});

	it('refuses a campaign ID without its type letter before any request, naming the field', async () => {
		const result = await campaignNode({
			resource: 'campaign',
			operation: 'get',
			// From an expression, which n8n's own field validation does not check.
			campaignId: byId('={{ "5002" }}'),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/Campaign/);
		expect(apiCalls(bed)).toEqual([]);
	});
});

describe('AWeber Campaign node: messages, opens and tracked events', () => {
	const campaign = () => byId(bed.sandbox.seed.campaigns.broadcast);
	const messagesPath = () => `${listPath(bed)}/campaigns/${bed.sandbox.seed.campaigns.broadcast}/messages`;

	it('gets the messages of a campaign up to the Limit, asking AWeber for no more', async () => {
		const result = await campaignNode({ resource: 'message', operation: 'getAll', campaignId: campaign(), limit: 3 });
		expect(result.items).toHaveLength(3);
		expect(result.items[0]).toMatchObject({ type: 'message', subscriber_link: expect.any(String) });
		expect(apiCalls(bed)).toEqual([expect.objectContaining({ path: messagesPath(), query: { 'ws.size': '3' } })]);
	});

	it('follows offset pages with Return All: one call per page', async () => {
		const whole = await campaignNode({ resource: 'message', operation: 'getAll', campaignId: campaign(), returnAll: true });
		bed.sandbox.clearRequests();
		const smallPages = registerSmallPageVariant(bed, 'aWeberCampaign', 2);
		const paged = await campaignNode({ resource: 'message', operation: 'getAll', campaignId: campaign(), returnAll: true }, smallPages);
		expect(paged.items).toEqual(whole.items);
		expect(apiCalls(bed)).toHaveLength(Math.ceil(whole.items.length / 2));
	});

	it('gets a message, its opens and one open', async () => {
		const { seed } = bed.sandbox;
		const messageId = byId(seed.messages.broadcast);
		const message = await campaignNode({ resource: 'message', operation: 'get', campaignId: campaign(), messageId });
		expect(message.items).toEqual([expect.objectContaining({ id: seed.messages.broadcast, total_opens: expect.any(Number) })]);

		const opens = await campaignNode({ resource: 'messageOpen', operation: 'getAll', campaignId: campaign(), messageId, returnAll: true });
		expect(opens.items).toHaveLength(message.items[0].total_opens as number);
		expect(opens.items.length).toBeGreaterThan(0);
		expect(opens.items[0]).toMatchObject({ type: 'open', event_time: expect.any(String) });

		const openId = String(opens.items[0].id);
		const open = await campaignNode({ resource: 'messageOpen', operation: 'get', campaignId: campaign(), messageId, openId });
		expect(open.items).toEqual([opens.items[0]]);
		const base = `${messagesPath()}/${seed.messages.broadcast}`;
		expect(callLines(bed)).toEqual([`GET ${base}`, `GET ${base}/opens`, `GET ${base}/opens/${openId}`]);
	});

	it('gets the tracked events of a message and one tracked event', async () => {
		// The seed gives tracked events (sales, web hits) to some recipients of the sent broadcast.
		const messages = await campaignNode({ resource: 'message', operation: 'getAll', campaignId: campaign(), returnAll: true });
		let found: { messageId: string; events: Record<string, unknown>[] } | undefined;
		for (const message of messages.items) {
			const events = await campaignNode({
				resource: 'messageTrackedEvent',
				operation: 'getAll',
				campaignId: campaign(),
				messageId: byId(String(message.id)),
				returnAll: true,
			});
			if (events.items.length > 0) {
				found = { messageId: String(message.id), events: events.items };
				break;
			}
		}
		expect(found).toBeDefined();
		const trackedEventId = String(found!.events[0].id);
		bed.sandbox.clearRequests();
		const event = await campaignNode({
			resource: 'messageTrackedEvent',
			operation: 'get',
			campaignId: campaign(),
			messageId: byId(found!.messageId),
			trackedEventId,
		});
		expect(event.items).toEqual([found!.events[0]]);
		expect(callLines(bed)).toEqual([`GET ${messagesPath()}/${found!.messageId}/tracked_events/${trackedEventId}`]);
	});

	it('refuses an open ID that is not a number before any request', async () => {
		const result = await campaignNode({
			resource: 'messageOpen',
			operation: 'get',
			campaignId: campaign(),
			messageId: byId(bed.sandbox.seed.messages.broadcast),
			openId: 'first',
		});
		expect(result.error?.message).toBe('The "Open" field must be a numeric AWeber ID, not "first"');
		expect(apiCalls(bed)).toEqual([]);
	});
});
