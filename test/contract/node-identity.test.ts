// What n8n's editor shows of each node (its name, description, icon and group in the node panel) and how n8n starts
// the triggers (by polling, by a webhook). Each node is built inside its own test, as n8n builds it when it loads the
// package, so that a changed description fails here under mutation testing too (docs/testing.md#mutation-testing):
// the lint tests that also read these fields do not run there.
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { LISTED_NODE_FILES, loadNodeFile, packageFile } from '../harness/nodeTypes';

/** The name and group n8n's node panel shows for each node type; triggers are in n8n's 'trigger' group. */
const PANEL: Record<string, Pick<INodeTypeDescription, 'displayName' | 'group'>> = {
	aWeberAccount: { displayName: 'AWeber Account', group: ['input'] },
	aWeberBroadcast: { displayName: 'AWeber Broadcast', group: ['output'] },
	aWeberCampaign: { displayName: 'AWeber Campaign', group: ['input'] },
	aWeberCustomField: { displayName: 'AWeber Custom Field', group: ['transform'] },
	aWeberIntegration: { displayName: 'AWeber Integration', group: ['input'] },
	aWeberLandingPage: { displayName: 'AWeber Landing Page', group: ['input'] },
	aWeberList: { displayName: 'AWeber List', group: ['input'] },
	aWeberSegment: { displayName: 'AWeber Segment', group: ['input'] },
	aWeberSubscriber: { displayName: 'AWeber', group: ['transform'] },
	aWeberWebform: { displayName: 'AWeber Webform', group: ['input'] },
	aWeberSubscriberTrigger: { displayName: 'AWeber Webhook Trigger', group: ['trigger'] },
	aWeberListTrigger: { displayName: 'AWeber Polling Trigger', group: ['trigger'] },
};

/** The icon of every node, light and dark, relative to its file as n8n reads it. */
const ICON = { light: 'file:../../icons/aweber.svg', dark: 'file:../../icons/aweber.dark.svg' };

/** How n8n starts a workflow from the node: polled on the trigger's Poll Times, on a delivery to its webhook URL, or not at all. */
function howItRuns(node: INodeType) {
	const { polling, webhooks, inputs, outputs, usableAsTool } = node.description;
	return {
		polling,
		polls: typeof node.poll === 'function',
		webhooks: webhooks?.map(({ httpMethod, path: webhookPath }) => `${String(httpMethod)} /${String(webhookPath)}`),
		receives: typeof node.webhook === 'function',
		inputs,
		outputs,
		usableAsTool,
	};
}

const TRIGGER = { polls: false, receives: false, inputs: [], outputs: ['main'] };
const RUNS: Record<string, object> = {
	aWeberListTrigger: { ...TRIGGER, polling: true, polls: true },
	aWeberSubscriberTrigger: { ...TRIGGER, webhooks: ['POST /webhook'], receives: true },
};
/** Any other node runs inside a workflow, on its input items, or as an AI agent's tool. */
const ACTION_NODE = { polls: false, receives: false, inputs: ['main'], outputs: ['main'], usableAsTool: true };

// The node modules are loaded here, outside any test, as every other test file loads them: their module-level code
// (field lists, tables such as the poll trigger's streams) is then static for Stryker, which would otherwise run a
// mutant there against these tests alone, which read none of it. The tests below build each node anew.
for (const file of LISTED_NODE_FILES) loadNodeFile(file);

describe.each(LISTED_NODE_FILES)('%s, as the n8n editor shows it', (file) => {
	it('has its name, group, a description, a default node name and both icons', () => {
		const nodes = loadNodeFile(file);
		expect(nodes).toHaveLength(1);
		const [{ description }] = nodes;
		expect({ displayName: description.displayName, group: description.group }).toEqual(PANEL[description.name]);
		expect(description.description).toMatch(/\w{3}/);
		expect(String(description.defaults.name)).toMatch(/^AWeber/);
		expect(description.icon).toEqual(ICON);
		for (const icon of Object.values(ICON)) {
			expect(existsSync(path.resolve(path.dirname(packageFile(file)), icon.replace(/^file:/, '')))).toBe(true);
		}
	});

	it('runs as its kind does: a trigger polled or called at its webhook, any other node inside a workflow or as a tool', () => {
		const [node] = loadNodeFile(file);
		expect(howItRuns(node)).toEqual(RUNS[node.description.name] ?? ACTION_NODE);
	});
});

it('the Webhook Trigger\'s panel says AWeber calls only the Production URL, entered in AWeber\'s control panel', () => {
	const [{ description }] = loadNodeFile(LISTED_NODE_FILES.find((file) => file.includes('AWeberSubscriberTrigger')) ?? '');
	const panel = description.triggerPanel;
	if (typeof panel !== 'object') throw new Error('the Webhook Trigger has no trigger panel');
	// n8n's own header ("Listen for test event") when empty.
	expect(panel.header).toBe('');
	const help = panel.executionsHelp;
	if (typeof help !== 'object') throw new Error('the Webhook Trigger\'s panel has no help');
	expect(help.inactive).toMatch(/send a test event to the Test URL.*AWeber itself only calls the Production URL.*activate the workflow/);
	expect(help.active).toMatch(/each AWeber delivery sent to its Production URL.*Webhook Verification Key/);
	expect(panel.activationHint).toMatch(/activate it and paste the Production URL into AWeber's control panel \(My Apps\)/);
});

it('knows every node the package lists', () => {
	expect(LISTED_NODE_FILES.flatMap((file) => loadNodeFile(file).map((node) => node.description.name)).sort()).toEqual(Object.keys(PANEL).sort());
});
