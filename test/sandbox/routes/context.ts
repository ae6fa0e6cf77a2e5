// What every resource-group module gets: the request as AWeber sees it, the account's state, and the
// way to declare operations (method + path + optional ws.op, each with the scope AWeber's reference gives it).
import type { SandboxClock } from '../clock';
import type { Query } from '../collections';
import { badRequest, invalidContentType, notFound } from '../errors';
import type { Links } from '../links';
import type { ListRecord, SandboxState, SubscriberRecord } from '../state';
import type { WebhookEventName } from '../types';

export type BodyKind = 'json' | 'form' | 'none' | 'other';

export interface ApiContext {
	params: Record<string, string>;
	query: Query;
	/** Parsed JSON or form body ({} when there is none); `access_token` already removed. */
	body: Record<string, unknown>;
	/** A body without a Content-Type header is read as a form, as AWeber does; add subscriber refuses it. */
	bodyKind: BodyKind;
	contentTypeGiven: boolean;
	accountId: number;
	scopes: string[];
	state: SandboxState;
	links: Links;
	clock: SandboxClock;
	emit(event: WebhookEventName, subscriber: SubscriberRecord): void;
}

export interface ApiResult {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

export interface Operation {
	scope: string;
	handle(ctx: ApiContext): ApiResult;
}

/** The operations of one method on one path: the plain one and the named ones selected by `ws.op`. */
export interface OperationTable {
	plain?: Operation;
	named?: Record<string, Operation>;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ApiRoutes {
	/** `path` is relative to /1.0 and uses fastify's `:param` syntax. */
	add(method: HttpMethod, path: string, table: OperationTable): void;
}

export const ok = (body: unknown): ApiResult => ({ status: 200, body });

/** 201 with an empty body and the new entity's URL in Location (add subscriber, move, create custom field). */
export const created = (location: string): ApiResult => ({ status: 201, headers: { location } });

/** 202 Accepted with an empty body: AWeber records the request later (a purchase); Location says where to look. */
export const accepted = (location: string): ApiResult => ({ status: 202, headers: { location } });

/** AWeber's 209 "Content Modified": every PATCH answers it with the updated entity. */
export const contentModified = (body: unknown): ApiResult => ({ status: 209, body });

export function intParam(ctx: ApiContext, name: string, what: string): number {
	const raw = ctx.params[name];
	if (!/^\d+$/.test(raw ?? '')) throw notFound(`${what} not found`);
	return Number(raw);
}

/** The list of the path; `notFoundType` is the 404 type the operation's reference names (broadcasts: ListNotFoundError). */
export function listOf(ctx: ApiContext, notFoundType = 'NotFoundError'): ListRecord {
	const raw = ctx.params.listId;
	const list = /^\d+$/.test(raw ?? '') ? ctx.state.lists.get(Number(raw)) : undefined;
	if (list === undefined) throw notFound('List with given id not found', notFoundType);
	return list;
}

/** Add subscriber: AWeber's specification answers a request without a Content-Type 400 BadRequestError. */
export function requireContentType(ctx: ApiContext): void {
	if (ctx.contentTypeGiven) return;
	throw badRequest(
		'The Content-Type header is missing: send application/json or application/x-www-form-urlencoded.',
		'BadRequestError',
	);
}

export function requireJsonOrForm(ctx: ApiContext): void {
	if (ctx.bodyKind === 'json' || ctx.bodyKind === 'form') return;
	throw invalidContentType('Content Type must be application/json or application/x-www-form-urlencoded');
}

export function requireForm(ctx: ApiContext): void {
	if (ctx.bodyKind === 'form') return;
	throw invalidContentType('Content Type must be application/x-www-form-urlencoded');
}

/** A single string field; form bodies may repeat a key, and then the first value counts. */
export function stringField(body: Record<string, unknown>, name: string): string | undefined {
	const value = body[name];
	if (value === undefined || value === null) return undefined;
	if (Array.isArray(value)) return value.length === 0 ? undefined : String(value[0]);
	if (typeof value === 'object') throw badRequest(`Invalid value for "${name}".`, 'InvalidTypeError');
	return String(value);
}

/** AWeber booleans arrive as JSON booleans or as the strings "true" / "false". */
export function booleanField(body: Record<string, unknown>, name: string): boolean | undefined {
	const value = body[name];
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'boolean') return value;
	const text = stringField(body, name)?.toLowerCase();
	if (text === 'true' || text === '1') return true;
	if (text === 'false' || text === '0') return false;
	throw badRequest(`Invalid value for "${name}": expected true or false.`, 'InvalidTypeError');
}

/** List-valued form fields carry a JSON-encoded array (docs/aweber-behaviour.md#conventions: include_lists, tags). */
export function jsonField(body: Record<string, unknown>, name: string): unknown {
	const value = body[name];
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch {
		throw badRequest(`Invalid JSON in "${name}".`, 'InvalidTypeError');
	}
}

export function checkLength(name: string, value: string | undefined, max: number): void {
	if (value !== undefined && value.length > max) {
		throw badRequest(`${name}: Value must be at most ${max} characters long.`);
	}
}
