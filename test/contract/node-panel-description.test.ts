// n8n's node panel merges a trigger into the page of the node whose type name is the trigger's without "Trigger", and
// that page then shows the trigger's description in place of the node's (n8n's editor, generateMergedNodesAndActions:
// `mergedNode.description = trigger.description`; docs/triggers.md#in-n8ns-node-panel). So each merged trigger's
// description begins with its node's: the AWeber page describes the Subscriber node, the AWeber List page the List node.
import type { INodeTypeDescription } from 'n8n-workflow';

import { LISTED_NODE_FILES, loadNodeFile } from '../harness/nodeTypes';

const descriptions = (): INodeTypeDescription[] => LISTED_NODE_FILES.flatMap((file) => loadNodeFile(file).map((node) => node.description));

// Loaded once here, outside any test, as in node-identity.test.ts: a node module first loaded inside a test makes all its
// module-level code (descriptions, constants) covered by that test for Stryker, which then runs each such mutant
// against this test alone instead of ignoring it as static (issue 52's run: 55 survivors of this kind).
descriptions();

/** The panel page each trigger joins, as n8n's editor finds it (the first "Trigger" removed from the type name). */
function pageOf(trigger: INodeTypeDescription, all: INodeTypeDescription[]): INodeTypeDescription | undefined {
	return all.find((node) => !node.group.includes('trigger') && node.name === trigger.name.replace('Trigger', ''));
}

describe("the node panel's merged pages", () => {
	it('every trigger joins a node page, and its description (shown on that page) begins with the node\'s', () => {
		const all = descriptions();
		const triggers = all.filter((node) => node.group.includes('trigger'));
		expect(triggers.map((trigger) => trigger.name).sort()).toEqual(['aWeberListTrigger', 'aWeberSubscriberTrigger']);
		for (const trigger of triggers) {
			const page = pageOf(trigger, all);
			expect(page).toBeDefined();
			expect(trigger.description.startsWith(page?.description ?? '(no page)')).toBe(true);
			// And it still says what the trigger does.
			expect(trigger.description.slice(page?.description.length)).toMatch(/starts the workflow/);
		}
	});
});
