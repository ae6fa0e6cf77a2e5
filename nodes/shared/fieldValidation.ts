import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

type FieldContext = Pick<IExecuteSingleFunctions, 'getNode' | 'getItemIndex'>;

/** AWeber refuses longer addresses (email ≤ 50 characters). */
export const AWEBER_MAX_EMAIL_LENGTH = 50;

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A routed text field's value, trimmed; an empty or missing value (say, from an expression) is not sent. */
export const TRIMMED_TEXT_OR_NOTHING = '={{ $value === undefined || $value === null || String($value).trim() === "" ? undefined : String($value).trim() }}';

/** A routed text field's value, trimmed; an empty value is sent (it clears the field), a missing one is not. */
export const TRIMMED_TEXT = '={{ $value === undefined || $value === null ? undefined : String($value).trim() }}';

/** Bad input, refused before any request: the message names the field as the user sees it. */
export function invalidField(context: FieldContext, label: string, problem: string, description?: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), `The "${label}" field ${problem}`, {
		description,
		itemIndex: context.getItemIndex(),
	});
}

export function isEmailAddress(value: string): boolean {
	return EMAIL_ADDRESS.test(value);
}

/** Required text typed or computed by an expression; numbers and booleans count as text; nothing (null, undefined) or blanks are refused as empty, anything else as no text. */
export function checkText(context: FieldContext, value: unknown, label: string): string {
	if (value === undefined || value === null) value = '';
	if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
	if (typeof value !== 'string') throw invalidField(context, label, `must be text, not ${describeType(value)}`);
	const text = value.trim();
	if (text === '') throw invalidField(context, label, 'is empty');
	return text;
}

/**
 * An address typed or computed by an expression. Nothing (null, undefined, blanks, or the text an expression makes
 * of a missing column, "undefined" or "null") is "no email address given", never quoted back as if it were one.
 */
export function checkEmailAddress(context: FieldContext, value: unknown, label: string): string {
	const given = typeof value === 'string' ? value.trim() : value;
	if (given === undefined || given === null || given === '' || given === 'undefined' || given === 'null') {
		throw invalidField(
			context,
			label,
			'is empty: no email address given',
			'Check that the field maps the column that holds the address, spelled as the input spells it (for example `email` or `Email`).',
		);
	}
	const email = checkText(context, value, label);
	if (!isEmailAddress(email)) {
		throw invalidField(context, label, `must be an email address, not "${email}"`);
	}
	if (email.length > AWEBER_MAX_EMAIL_LENGTH) {
		throw invalidField(context, label, `is longer than AWeber's limit of ${AWEBER_MAX_EMAIL_LENGTH} characters`);
	}
	return email;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^(?=.*:)[0-9a-f:.]{2,45}$/i;

/** Only the form is checked here; AWeber itself refuses private and reserved addresses. */
export function checkIpAddress(context: FieldContext, value: unknown, label: string): string {
	const address = checkText(context, value, label);
	if (!IPV4.test(address) && !IPV6.test(address)) {
		throw invalidField(context, label, `must be an IPv4 or IPv6 address, not "${address}"`);
	}
	return address;
}

/** A number typed or from an expression: a number or numeric text; blank text, null, Infinity or anything else is refused. */
export function checkNumber(context: FieldContext, value: unknown, label: string): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number === 'number' && Number.isFinite(number)) return number;
	const given = typeof value === 'string' ? `"${value}"` : typeof value === 'number' ? String(value) : describeType(value);
	throw invalidField(context, label, `must be a number, not ${given}`);
}

export function describeType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/** A preSend that refuses empty required fields (n8n only marks them in the editor) before any request. */
export function requireFields(...fields: Array<{ name: string; label: string }>) {
	return async function checkRequiredFields(
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		for (const field of fields) checkText(this, this.getNodeParameter(field.name, ''), field.label);
		return requestOptions;
	};
}

/**
 * A collection read's Limit (shown when Return All is off), checked for every operation (routing.ts aweberTransport):
 * n8n holds a typed Limit at 1 or more, not one an expression gives, which AWeber would refuse as its `ws.size`. n8n
 * drops a parameter its node does not show (a Limit under Return All) before the node reads it: it reads as 1 here.
 */
export async function checkLimit(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const limit = checkNumber(this, this.getNodeParameter('limit', 1), 'Limit');
	if (!Number.isInteger(limit)) throw invalidField(this, 'Limit', `must be a whole number, not ${limit}`);
	if (limit < 1) throw invalidField(this, 'Limit', `must be at least 1, not ${limit}`);
	return requestOptions;
}
