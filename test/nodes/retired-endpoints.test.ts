// Campaign messages, their opens and tracked events, and the subscribers of a message: AWeber's current API
// reference no longer lists them (docs/aweber-behaviour.md#retired-endpoints). The operations stay and work
// while AWeber answers; the editor says so, and a 404 there says what to use instead.
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodeProperties, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import { PACKAGE_PREFIX } from '../harness';
import { useTestbed } from '../harness/aweber';
import { byId, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();

const WHAT_TO_USE = /Use the AWeber Broadcast node instead: Get Opens and Get Clicks .*Get Statistic/;

function propertiesOf(type: string): INodeProperties[] {
	return bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}${type}`).description.properties;
}

async function searchMessages(parameters: IDataObject): Promise<INodeListSearchResult> {
	const nodeType = bed.harness.nodeTypes.getByNameAndVersion(`${PACKAGE_PREFIX}aWeberCampaign`);
	const node = bed.harness.toNode({ type: 'aWeberCampaign', credentialId: bed.credentialId, parameters }, 'Node Under Test');
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
	const additionalData = { credentialsHelper: bed.harness.credentials } as unknown as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	const search = nodeType.methods?.listSearch?.searchMessages as (this: ILoadOptionsFunctions) => Promise<INodeListSearchResult>;
	return await search.call(context);
}

describe('operations on endpoints AWeber\'s current reference no longer lists', () => {
	it('the editor says so for Campaign → Message, Message Open, Message Tracked Event and Subscriber → Get for Message', () => {
		const campaignNotice = propertiesOf('aWeberCampaign').find((property) => property.name === 'retiredEndpointNotice');
		expect(campaignNotice).toMatchObject({ type: 'notice', displayOptions: { show: { resource: ['message', 'messageOpen', 'messageTrackedEvent'] } } });
		expect(campaignNotice?.displayName).toMatch(/no longer lists campaign messages.*Get Opens, Get Clicks, Get Statistic/);
		const resources = propertiesOf('aWeberCampaign').find((property) => property.name === 'resource')?.options as Array<{ value: string; description?: string }>;
		for (const value of ['message', 'messageOpen', 'messageTrackedEvent']) {
			expect(resources.find((option) => option.value === value)?.description).toMatch(/Not in AWeber's current API reference/);
		}
		const subscriberNotice = propertiesOf('aWeberSubscriber').find((property) => property.name === 'retiredEndpointNotice');
		expect(subscriberNotice).toMatchObject({ displayOptions: { show: { operation: ['getForMessage'] } } });
		const picker = propertiesOf('aWeberCampaign').find((property) => property.name === 'messageId');
		expect(picker?.description).toMatch(/no longer lists campaign messages/);
	});

	it('they still work while AWeber answers them', async () => {
		const result = await run(bed, 'aWeberCampaign', { ...newsletterScope(bed), resource: 'message', operation: 'getAll', campaignId: byId(bed.sandbox.seed.campaigns.broadcast), limit: 2 });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
	});

	describe('when AWeber answers 404 there', () => {
		beforeEach(() => bed.sandbox.retireMessageEndpoints());

		it.each([
			['Campaign → Message → Get Many', 'aWeberCampaign', { resource: 'message', operation: 'getAll', returnAll: true }],
			['Campaign → Message Open → Get Many', 'aWeberCampaign', { resource: 'messageOpen', operation: 'getAll', messageId: '70001', returnAll: true }],
			['Campaign → Message Tracked Event → Get Many', 'aWeberCampaign', { resource: 'messageTrackedEvent', operation: 'getAll', messageId: '70001', returnAll: true }],
			['Subscriber → Get for Message', 'aWeberSubscriber', { operation: 'getForMessage', returnAll: true }],
		])('%s fails saying the reference no longer lists it and what to use instead', async (_name, type, parameters) => {
			const result = await run(bed, type, { ...newsletterScope(bed), campaignId: byId(bed.sandbox.seed.campaigns.broadcast), ...parameters });
			expect(result.error?.httpCode).toBe('404');
			expect(result.error?.description).toMatch(/AWeber's current API reference no longer lists the campaign message endpoints/);
			expect(result.error?.description).toMatch(WHAT_TO_USE);
		});

		it('the message picker fails the same way', async () => {
			const searched = searchMessages({ ...newsletterScope(bed), resource: 'message', operation: 'get', campaignId: byId(bed.sandbox.seed.campaigns.broadcast) });
			await expect(searched).rejects.toMatchObject({ description: expect.stringMatching(WHAT_TO_USE) });
		});

		it('a 404 elsewhere keeps the usual hint', async () => {
			const result = await run(bed, 'aWeberCampaign', { ...newsletterScope(bed), resource: 'campaign', operation: 'get', campaignId: byId('b999999') });
			// The whole error on a failure: once, under load, it had no HTTP code.
			expect(result.error).toMatchObject({ httpCode: '404' });
			expect(result.error?.description).not.toMatch(WHAT_TO_USE);
		});
	});
});
