// What a user sees of our package in the real n8n editor (headless Chromium): the node panel lists every
// AWeber node, each trigger's events on the page of the node it belongs to (n8n merges a trigger into the page of
// the node whose type name is the trigger's without "Trigger": docs/triggers.md#in-n8ns-node-panel), and the
// Subscriber node's parameters load the account's lists, tags and custom fields through the credential. Each view is also saved as a screenshot (UPDATE_SCREENSHOTS=1: the README's
// images in docs/screenshots/, see lib/browser.ts).
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { startSandbox, type Sandbox } from '../sandbox';
import {
	PACKAGE_NAME,
	aweberWorkflow,
	createAweberCredential,
	importWorkflow,
	startN8n,
	type N8nInstance,
} from './lib';
import {
	inputValues,
	launchBrowser,
	openAppTriggers,
	openNodeParameters,
	openSignedInEditor,
	openWorkflow,
	saveScreenshot,
	searchNodePanel,
} from './lib/browser';

const SUBSCRIBER_NODE = 'Add subscriber';

interface NodeTypeSummary {
	name: string;
	displayName: string;
	group: string[];
	description: string;
	properties: Array<{ displayName: string; options?: Array<{ name: string }> }>;
}

/** A resource-locator value picked from the list, as the editor saves it (with the name it showed). */
const picked = (value: number, name: string) => ({ __rl: true, mode: 'list', value: String(value), cachedResultName: name });

describe('the n8n editor shows the AWeber nodes', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let browser: Browser;
	let context: BrowserContext;
	let page: Page;
	let workflowId: string;

	beforeAll(async () => {
		sandbox = await startSandbox();
		[n8n, browser] = await Promise.all([startN8n(), launchBrowser()]);
		const credentialId = await createAweberCredential(n8n, sandbox, { name: 'AWeber' });
		// The README's first use: a form sign-up added to a list with tags and custom fields.
		workflowId = await importWorkflow(
			n8n,
			aweberWorkflow('Form sign-up with tags', credentialId, [
				{
					name: SUBSCRIBER_NODE,
					node: 'aWeberSubscriber',
					executeOnce: false,
					parameters: {
						operation: 'create',
						accountId: picked(sandbox.seed.accountId, sandbox.seed.company),
						listId: picked(sandbox.seed.lists.newsletter, 'Newsletter'),
						email: 'ada@example.com',
						additionalFields: {
							name: 'Ada Lovelace',
							tags: ['vip', 'webinar'],
							customFields: { field: [{ name: 'Company', value: 'Analytical Engines' }, { name: 'Plan', value: 'pro' }] },
						},
						options: { updateExisting: true },
					},
				},
			]),
		);
		({ context, page } = await openSignedInEditor(browser, n8n));
	});
	afterAll(async () => {
		await context?.close();
		await browser?.close();
		await n8n?.stop();
		await sandbox?.stop();
	});

	it('lists every AWeber node when the node panel is searched for "AWeber"', async () => {
		const types = await n8n.request<NodeTypeSummary[]>('GET', '/types/nodes.json');
		// The package's action nodes, not the "… Tool" variants n8n derives for AI agents; the triggers are not listed
		// on their own but on their nodes' pages (next test).
		const ours = types.body.filter((type) => type.name.startsWith(`${PACKAGE_NAME}.`) && !type.name.endsWith('Tool'));
		expect(ours).toHaveLength(12);
		const expected = ours.filter((type) => !type.group.includes('trigger')).map((type) => type.displayName);

		await openWorkflow(page, n8n, workflowId);
		const listed = await searchNodePanel(page, 'AWeber', 'AWeber Broadcast');
		expect([...listed].sort()).toEqual([...expected].sort());
		// The Subscriber node, the one people use most, is listed first under its panel name "AWeber".
		const subscriber = types.body.find((type) => type.name === `${PACKAGE_NAME}.aWeberSubscriber`);
		expect(listed[0]).toBe(subscriber?.displayName);
		// n8n shows the merged Webhook Trigger's description on the Subscriber node's entry: it begins with the node's
		// (docs/triggers.md#in-n8ns-node-panel).
		const entry = page
			.locator('[data-test-id="node-creator-action-item"], [data-test-id="node-creator-node-item"]')
			.filter({ has: page.getByTestId('node-creator-item-name').getByText(subscriber?.displayName ?? 'AWeber', { exact: true }) });
		const shown = (await entry.first().getByTestId('node-creator-item-description').textContent())?.trim() ?? '';
		expect(shown.startsWith(subscriber?.description ?? '(none)')).toBe(true);
		await saveScreenshot(page, 'node-panel.png');
		await page.keyboard.press('Escape');
	});

	it.each([
		['AWeber Webhook Trigger', 'AWeber', 'node-panel-aweber-triggers.png'],
		['AWeber Polling Trigger', 'AWeber List', 'node-panel-aweber-list-triggers.png'],
	])("lists the %s's events under Triggers on the %s page of the node panel", async (trigger, app, screenshot) => {
		const types = await n8n.request<NodeTypeSummary[]>('GET', '/types/nodes.json');
		const triggerType = types.body.find((type) => type.name.startsWith(`${PACKAGE_NAME}.`) && type.displayName === trigger);
		const events = triggerType?.properties.find((property) => ['Event', 'Events'].includes(property.displayName))?.options ?? [];
		expect(events.length).toBeGreaterThan(0);

		await openWorkflow(page, n8n, workflowId);
		const listed = await openAppTriggers(page, 'AWeber', app);
		// n8n names each event "On <event name in lower case>".
		expect(listed.map((name) => name.toLowerCase())).toEqual(events.map((event) => `on ${event.name.toLowerCase()}`));
		await saveScreenshot(page, screenshot);
		await page.keyboard.press('Escape');
	});

	it("shows the Subscriber node's Create parameters: account, list, tags and custom fields of the list", async () => {
		await openWorkflow(page, n8n, workflowId);
		const parameters = await openNodeParameters(page, SUBSCRIBER_NODE);
		const shown = async (testId: string) => await inputValues(parameters.getByTestId(testId));

		expect(await shown('parameter-input-operation')).toContain('Create');
		expect(await shown('resource-locator-accountId')).toContain(sandbox.seed.company);
		expect(await shown('resource-locator-listId')).toContain('Newsletter');
		expect(await shown('parameter-input-email')).toContain('ada@example.com');
		// Tags and custom field names come from the list's options (loaded through the credential).
		const tags = parameters.getByTestId('parameter-input-tags');
		await tags.getByText('webinar').waitFor();
		expect((await tags.innerText()).split('\n').map((tag) => tag.trim())).toEqual(['vip', 'webinar']);
		expect(await shown('fixed-collection-customFields')).toEqual(
			expect.arrayContaining(['Company', 'Analytical Engines', 'Plan', 'pro']),
		);
		// The double-click left the pointer over a field (which then shows its Fixed / Expression toggle).
		await page.getByTestId('ndv-input-panel').hover();
		await saveScreenshot(page, 'subscriber-parameters.png');
	});

	it("offers the account's lists in the Subscriber node's list picker", async () => {
		await openWorkflow(page, n8n, workflowId);
		const parameters = await openNodeParameters(page, SUBSCRIBER_NODE);
		await parameters.getByTestId('resource-locator-listId').getByTestId('rlc-input').click();
		const items = page.getByTestId('rlc-item');
		await items.filter({ hasText: 'Empty' }).waitFor();
		expect((await items.allInnerTexts()).map((name) => name.trim())).toEqual(
			expect.arrayContaining(['Newsletter', 'Customers', 'Bulk', 'Empty']),
		);
		await saveScreenshot(page, 'subscriber-list-picker.png');
	});
});
