// A logged-in session on n8n's internal REST API (/rest), as the editor uses it. `npm start` provisions n8n with it.

/** n8n binds its session cookie to this header (the JWT holds a hash of it): every call sends the same. */
const BROWSER_ID = 'n8n-nodes-aweber-npm-start';

export class N8nRequestError extends Error {
	constructor(
		readonly method: string,
		readonly path: string,
		readonly status: number,
		readonly body: string,
	) {
		super(`${method} ${path} answered ${status}: ${N8nRequestError.reason(body)}`);
	}

	/** n8n's error message without its stack trace, else the start of the answer. */
	private static reason(body: string): string {
		try {
			const { message } = JSON.parse(body) as { message?: unknown };
			if (typeof message === 'string') return message;
		} catch {
			// Not JSON: an HTML error page or plain text.
		}
		return body.slice(0, 300);
	}
}

export class N8nSession {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	/** Any request on n8n with the session; answers as they come (redirects are not followed). */
	async request(method: string, path: string, body?: unknown): Promise<Response> {
		const headers: Record<string, string> = { 'browser-id': BROWSER_ID };
		if (this.cookie !== '') headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			redirect: 'manual',
		});
		const auth = response.headers.getSetCookie().find((cookie) => cookie.startsWith('n8n-auth='));
		if (auth !== undefined) this.cookie = auth.split(';')[0];
		return response;
	}

	/** A /rest call; resolves with the answer unwrapped from `{ data }`, throws unless 2xx. */
	async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.request(method, `/rest${path}`, body);
		const text = await response.text();
		if (!response.ok) throw new N8nRequestError(method, `/rest${path}`, response.status, text);
		const answer: unknown = text === '' ? undefined : JSON.parse(text);
		return (answer !== null && typeof answer === 'object' && 'data' in answer ? answer.data : answer) as T;
	}

	/** Creates the owner account on a fresh n8n; resolves with false when one already exists. */
	async setUpOwner(login: { email: string; password: string }): Promise<boolean> {
		const settings = await this.rest<{ userManagement: { showSetupOnFirstLoad?: boolean } }>('GET', '/settings');
		if (settings.userManagement.showSetupOnFirstLoad !== true) return false;
		await this.rest('POST', '/owner/setup', { ...login, firstName: 'Sandbox', lastName: 'Owner' });
		return true;
	}

	async logIn(login: { email: string; password: string }): Promise<void> {
		await this.rest('POST', '/login', { emailOrLdapLoginId: login.email, password: login.password });
	}
}
