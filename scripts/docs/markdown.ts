// Markdown pieces the generated docs share (operations.ts, triggerEvents.ts).
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

export function cell(text: string): string {
	return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
}

export function sentence(text: string): string {
	const trimmed = text.trim();
	return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** A field's description, with the choices of a fixed options list (their names are what the user picks). */
export function fieldDescription(property: INodeProperties): string {
	const description = property.description ?? '';
	const choices = (property.type === 'options' || property.type === 'multiOptions') && Array.isArray(property.options) ? (property.options as INodePropertyOptions[]) : [];
	if (choices.length === 0 || choices.some((choice) => !('value' in choice))) return description;
	return [sentence(description), `Choices: ${choices.map((choice) => `*${choice.name}*`).join(', ')}.`].filter(Boolean).join(' ');
}

