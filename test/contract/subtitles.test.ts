import type { IDataObject, INode, INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { HarnessNodeTypes, loadPackage } from '../harness/nodeTypes';

/*
 * What a user sees of every built node in n8n's node panel and on the canvas: the subtitle under a node names the
 * chosen operation as the node shows it, never its value, on every node, for every choice.
 */

const { nodes } = loadPackage();
const nodeTypes = new HarnessNodeTypes(nodes);
const builtNodes = [...nodes.values()];

function optionsOf(property: INodeProperties): INodePropertyOptions[] {
	return (property.options ?? []) as INodePropertyOptions[];
}

/** The canvas subtitle of a node with these parameters, evaluated by n8n's expression engine as the editor does. */
function subtitleOf(nodeType: INodeType, parameters: IDataObject): unknown {
	const node: INode = {
		id: 'subtitle',
		name: 'Subtitle',
		type: `n8n-nodes-aweber.${nodeType.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, nodeType.description.subtitle as string, 'internal', {});
}

interface Choice {
	parameters: IDataObject;
	/** The names the user chose from, as the node shows them. */
	names: string[];
	/** The values stored for those choices. */
	values: string[];
}

/** Every choice the subtitle can show: each resource and operation, or each trigger event. */
function choicesOf(nodeType: INodeType): Choice[] {
	const { properties } = nodeType.description;
	const resource = properties.find((property) => property.name === 'resource');
	const operations = properties.filter((property) => property.name === 'operation');
	if (operations.length > 0) {
		return operations.flatMap((operation) => {
			const resources = resource
				? optionsOf(resource).filter((option) => (operation.displayOptions?.show?.resource as string[] | undefined)?.includes(String(option.value)) ?? true)
				: [undefined];
			return resources.flatMap((chosenResource) =>
				optionsOf(operation).map((option) => ({
					parameters: chosenResource ? { resource: chosenResource.value, operation: option.value } : { operation: option.value },
					names: chosenResource ? [option.name, chosenResource.name] : [option.name],
					values: [String(option.value)],
				})),
			);
		});
	}
	const event = properties.find((property) => property.name === 'event' || property.name === 'events');
	if (!event) return [];
	const single = optionsOf(event).map((option) => ({
		parameters: { [event.name]: event.type === 'multiOptions' ? [option.value] : option.value },
		names: [option.name],
		values: [String(option.value)],
	}));
	if (event.type !== 'multiOptions') return single;
	const all = optionsOf(event);
	return [...single, { parameters: { [event.name]: all.map((option) => option.value) }, names: all.map((option) => option.name), values: all.map((option) => String(option.value)) }];
}

describe('every built node', () => {
	it('is found (the package lists twelve nodes)', () => {
		expect(builtNodes.length).toBe(12);
	});

	describe.each(builtNodes.map((nodeType) => [nodeType.description.displayName, nodeType] as const))('%s', (_name, nodeType) => {
		const choices = choicesOf(nodeType);

		it('has a subtitle and something to show in it', () => {
			expect(typeof nodeType.description.subtitle).toBe('string');
			expect(choices.length).toBeGreaterThan(0);
		});

		it('shows every choice on the canvas by the names the node shows, not by stored values', () => {
			for (const choice of choices) {
				const subtitle = subtitleOf(nodeType, choice.parameters);
				expect({ choice: choice.parameters, subtitle }).toEqual({ choice: choice.parameters, subtitle: expect.any(String) });
				for (const name of choice.names) expect({ choice: choice.parameters, subtitle }).toEqual({ choice: choice.parameters, subtitle: expect.stringContaining(name) });
				const words = String(subtitle).split(/[\s:,]+/);
				for (const value of choice.values.filter((value) => !choice.names.includes(value))) {
					expect({ choice: choice.parameters, rawValueShown: words.includes(value) }).toEqual({ choice: choice.parameters, rawValueShown: false });
				}
			}
		});
	});
});

describe('the node panel', () => {
	const actionNodes = builtNodes.filter((nodeType) => !nodeType.description.group.includes('trigger'));
	const subscriber = builtNodes.find((nodeType) => nodeType.description.name === 'aWeberSubscriber')!;

	it('ranks the Subscriber node first when searching "AWeber": its name is the closest match (n8n\'s search takes one point off per letter not typed)', () => {
		const others = actionNodes.filter((nodeType) => nodeType !== subscriber).map((nodeType) => nodeType.description.displayName);
		for (const other of others) expect(subscriber.description.displayName.length).toBeLessThan(other.length);
		expect(subscriber.description.displayName.toLowerCase()).toContain('aweber');
	});

	it('lists Create or Update, the Subscriber node\'s most used action, first', () => {
		const operation = subscriber.description.properties.find((property) => property.name === 'operation')!;
		expect(optionsOf(operation)[0]).toMatchObject({ name: 'Create or Update', value: 'upsert' });
	});

	it('shows every node under its own name, the triggers once n8n drops " Trigger" from theirs', () => {
		const triggers = builtNodes.filter((nodeType) => nodeType.description.group.includes('trigger')).map((nodeType) => nodeType.description.displayName);
		expect(triggers.length).toBeGreaterThan(1);
		for (const trigger of triggers) expect(trigger).toMatch(/ Trigger$/);
		const shown = [...actionNodes.map((nodeType) => nodeType.description.displayName), ...triggers.map((trigger) => trigger.replace(/ trigger/i, ''))];
		expect(new Set(shown).size).toBe(shown.length);
		// "AWeber Poll" would read as a survey feature.
		expect(shown).not.toContain('AWeber Poll');
	});
});
