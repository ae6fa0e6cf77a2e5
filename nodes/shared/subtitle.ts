import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/*
 * The canvas subtitle under a node: the chosen operation (and resource) by the names the node shows, not their
 * values ("Create or Update", not "upsert"), as n8n shows for its own nodes. Built from the node's own options, so a
 * new operation has its name there without anyone writing it twice.
 */

function isOptions(property: INodeProperties): boolean {
	return (property.type === 'options' || property.type === 'multiOptions') && Array.isArray(property.options);
}

function namesByValue(property: INodeProperties): Record<string, string> {
	const names: Record<string, string> = {};
	for (const option of property.options as INodePropertyOptions[]) names[String(option.value)] = option.name;
	return names;
}

/** A JSON object literal for an n8n expression (its braces never close the expression's `}}`). */
function literal(names: Record<string, string>): string {
	return `(${JSON.stringify(names)})`;
}

/**
 * The subtitle expression for a node whose properties choose `parameter` (`operation` with or without a
 * `resource`, a trigger's `event`, or its `events` for several).
 */
export function readableSubtitle(properties: INodeProperties[], parameter = 'operation'): string {
	const chosen = properties.filter((property) => property.name === parameter && isOptions(property));
	if (chosen.length === 0) throw new Error(`No options property "${parameter}" to build the subtitle from`);
	const value = `$parameter["${parameter}"]`;
	const resource = properties.find((property) => property.name === 'resource' && isOptions(property));
	if (parameter === 'operation' && resource) {
		const resourceNames = namesByValue(resource);
		const names: Record<string, string> = {};
		for (const operation of chosen) {
			const shownFor = (operation.displayOptions?.show?.resource as string[] | undefined) ?? Object.keys(resourceNames);
			for (const [operationValue, operationName] of Object.entries(namesByValue(operation))) {
				for (const resourceValue of shownFor) names[`${resourceValue}:${operationValue}`] = `${operationName}: ${resourceNames[resourceValue]}`;
			}
		}
		return `={{ ${literal(names)}[$parameter["resource"] + ":" + ${value}] || ${value} }}`;
	}
	const names = Object.assign({}, ...chosen.map(namesByValue)) as Record<string, string>;
	if (chosen[0].type === 'multiOptions') {
		return `={{ (${value} || []).map((chosen) => ${literal(names)}[chosen] || chosen).join(", ") }}`;
	}
	return `={{ ${literal(names)}[${value}] || ${value} }}`;
}
