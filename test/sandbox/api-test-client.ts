// A small HTTP client for the sandbox's resource API tests: raw status, headers and body, nothing hidden.
import { request } from 'undici';

import { startSandbox } from './index';
import type { Sandbox } from './types';

export interface ApiResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	json(): any;
}

export interface CallOptions {
	/** Sent as a bearer header unless `tokenIn` says otherwise. */
	token?: string;
	tokenIn?: 'header' | 'body' | 'query';
	query?: Record<string, string>;
	json?: unknown;
	form?: Record<string, string>;
	/** Raw body with its own content type; without one no Content-Type header is sent (as Python's requests does). */
	raw?: { contentType?: string; body: string };
	headers?: Record<string, string>;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** `path` is relative to /1.0 (e.g. `/accounts/1234567`) or an absolute URL (a link from a response). */
export async function call(sandbox: Sandbox, method: Method, path: string, options: CallOptions = {}): Promise<ApiResponse> {
	const url = new URL(path.startsWith('http') ? path : `${sandbox.apiBaseUrl}/1.0${path}`);
	for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
	const headers: Record<string, string> = { ...options.headers };
	const tokenIn = options.tokenIn ?? 'header';
	let form = options.form;
	if (options.token !== undefined) {
		if (tokenIn === 'header') headers.authorization = `Bearer ${options.token}`;
		if (tokenIn === 'query') url.searchParams.set('access_token', options.token);
		if (tokenIn === 'body') form = { ...form, access_token: options.token };
	}
	let body: string | undefined;
	if (options.json !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(options.json);
	} else if (form !== undefined) {
		headers['content-type'] = 'application/x-www-form-urlencoded';
		body = new URLSearchParams(form).toString();
	} else if (options.raw !== undefined) {
		if (options.raw.contentType !== undefined) headers['content-type'] = options.raw.contentType;
		body = options.raw.body;
	}
	const response = await request(url, { method, headers, body });
	const text = await response.body.text();
	return {
		status: response.statusCode,
		headers: response.headers,
		text,
		json: () => JSON.parse(text),
	};
}

export function accountPath(sandbox: Sandbox): string {
	return `/accounts/${sandbox.seed.accountId}`;
}

export function listPath(sandbox: Sandbox, listId: number): string {
	return `${accountPath(sandbox)}/lists/${listId}`;
}

/** A purchase with every field Create a purchase requires (schema Purchase), for a test to leave one out or change. */
export const PURCHASE = {
	email: 'buyer@example.com',
	ip_address: '203.0.113.9',
	vendor: 'Shop',
	product_name: 'Tent',
	event_note: 'order 1',
	currency: 'USD',
	value: 199.5,
	event_time: '2026-01-01T10:00:00.123Z',
	url: 'https://shop.example/thanks',
} as const;

/**
 * A sandbox for the tests of a file or describe block: started before them, stopped after them, and reset before
 * each test, which `onReset` receives with a fresh token of every scope.
 */
export function useSandbox(onReset: (sandbox: Sandbox, token: string) => void): void {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => {
		await sandbox?.stop();
	});
	beforeEach(() => {
		sandbox!.reset();
		onReset(sandbox!, sandbox!.issueToken().access_token);
	});
}
