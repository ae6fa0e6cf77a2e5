// A small validator for the subset of the reference's schema language that schemas.ts uses. Returns every
// departure as "path: what", so a failing test names the field.
import type { JsonType, ReferenceSchema } from './schemas';

function typeOf(value: unknown): JsonType | 'null' {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
	return typeof value as JsonType;
}

function matchesType(actual: JsonType | 'null', expected: JsonType): boolean {
	return actual === expected || (expected === 'number' && actual === 'integer');
}

export function validateAgainstReference(schema: ReferenceSchema, value: unknown, path = '$'): string[] {
	// AWeber sends null in fields the reference does not mark nullable (reference/README.md).
	if (value === null || value === undefined) return [];
	const problems: string[] = [];
	const actual = typeOf(value);
	if (schema.type !== undefined) {
		const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
		if (!allowed.some((type) => matchesType(actual, type))) {
			return [`${path}: is ${actual} (${JSON.stringify(value)}), the reference says ${allowed.join(' or ')}`];
		}
	}
	if (schema.enum !== undefined && !schema.enum.includes(value as string | number)) {
		problems.push(`${path}: ${JSON.stringify(value)} is not one of ${schema.enum.map((item) => JSON.stringify(item)).join(', ')}`);
	}
	if (typeof value === 'number') {
		if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: ${value} is below the minimum ${schema.minimum}`);
		if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path}: ${value} is above the maximum ${schema.maximum}`);
	}
	if (typeof value === 'string' && schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
		problems.push(`${path}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
	}
	if (Array.isArray(value) && schema.items !== undefined) {
		value.forEach((item, index) => problems.push(...validateAgainstReference(schema.items as ReferenceSchema, item, `${path}[${index}]`)));
	}
	if (actual === 'object') {
		const record = value as Record<string, unknown>;
		for (const name of schema.required ?? []) {
			if (!(name in record)) problems.push(`${path}.${name}: is missing, the reference requires it`);
		}
		for (const [name, fieldValue] of Object.entries(record)) {
			const fieldSchema = schema.properties?.[name];
			if (fieldSchema !== undefined) problems.push(...validateAgainstReference(fieldSchema, fieldValue, `${path}.${name}`));
			else if (schema.closed === true) problems.push(`${path}.${name}: is not in the reference's schema`);
		}
	}
	return problems;
}
