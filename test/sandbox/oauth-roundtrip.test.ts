// The whole sandbox over HTTP: AWeber's OAuth flows end to end, then the resource API with the token,
// and a webhook delivery caused by an API call.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startSandbox } from './index';
import type { Sandbox } from './index';
import {
	approvedCode,
	basicAuthorization,
	codeChallengeOf,
	formPost,
	httpCall,
	newCodeVerifier,
} from './oauth-test-client';
import type { TokenRecord } from './types';

const N8N_CALLBACK = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';

describe('sandbox OAuth round trip over HTTP', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
	});

	afterAll(async () => {
		await sandbox.stop();
	});

	function getAccounts(accessToken: string) {
		return httpCall(sandbox.apiBaseUrl, {
			method: 'GET',
			url: '/1.0/accounts',
			headers: { authorization: `Bearer ${accessToken}` },
		});
	}

	function token(form: Record<string, string>, headers: Record<string, string> = {}) {
		return httpCall(sandbox.authBaseUrl, formPost('/oauth2/token', form, headers));
	}

	function confidentialBasic() {
		const { clientId, clientSecret } = sandbox.apps.confidential;
		return { authorization: basicAuthorization(clientId, clientSecret) };
	}

	/** An authorization code of the confidential app for n8n's callback, approved for `scope` (with `state` when given). */
	async function confidentialCode(scope: string, state?: string): Promise<string> {
		return await approvedCode(sandbox.authBaseUrl, {
			response_type: 'code',
			client_id: sandbox.apps.confidential.clientId,
			redirect_uri: N8N_CALLBACK,
			scope,
			...(state === undefined ? {} : { state }),
		});
	}

	/** Exchanges a code of confidentialCode for tokens, the app authenticated with HTTP Basic. */
	function exchangeConfidentialCode(code: string) {
		return token({ grant_type: 'authorization_code', code, redirect_uri: N8N_CALLBACK }, confidentialBasic());
	}

	function expectSeededAccount(response: Awaited<ReturnType<typeof getAccounts>>) {
		expect(response.statusCode).toBe(200);
		const body = response.json() as { entries: Array<{ id: number }> };
		expect(body.entries.map((entry) => entry.id)).toEqual([sandbox.seed.accountId]);
	}

	it('authorize, approve, exchange the code with HTTP Basic, then GET /1.0/accounts with the token', async () => {
		const code = await confidentialCode('account.read list.read', 'round-trip');
		const exchanged = await exchangeConfidentialCode(code);
		expect(exchanged.statusCode).toBe(200);
		const record = exchanged.json() as unknown as TokenRecord;
		expect(record.expires_in).toBe(3600);

		expectSeededAccount(await getAccounts(record.access_token));
		const logged = sandbox.requests().filter((entry) => entry.path === '/1.0/accounts');
		expect(logged.at(-1)).toMatchObject({ method: 'GET', status: 200, account: sandbox.seed.accountId });
	});

	it('the PKCE flow gives a token that works, is refused once expired, and works again after a refresh', async () => {
		const verifier = newCodeVerifier();
		const code = await approvedCode(sandbox.authBaseUrl, {
			response_type: 'code',
			client_id: sandbox.apps.public.clientId,
			redirect_uri: N8N_CALLBACK,
			scope: 'account.read',
			code_challenge: codeChallengeOf(verifier),
			code_challenge_method: 'S256',
		});
		const exchanged = await token({
			grant_type: 'authorization_code',
			code,
			redirect_uri: N8N_CALLBACK,
			client_id: sandbox.apps.public.clientId,
			code_verifier: verifier,
		});
		expect(exchanged.statusCode).toBe(200);
		const first = exchanged.json() as unknown as TokenRecord;
		expectSeededAccount(await getAccounts(first.access_token));

		sandbox.clock.advance(3600 * 1000);
		expect((await getAccounts(first.access_token)).statusCode).toBe(401);

		const refreshed = await token({
			grant_type: 'refresh_token',
			refresh_token: first.refresh_token,
			client_id: sandbox.apps.public.clientId,
		});
		expect(refreshed.statusCode).toBe(200);
		const second = refreshed.json() as unknown as TokenRecord;
		expectSeededAccount(await getAccounts(second.access_token));
	});

	it('a token without account.read gets 403 naming the scope', async () => {
		const code = await confidentialCode('list.read');
		const record = (await exchangeConfidentialCode(code)).json() as unknown as TokenRecord;
		const refused = await getAccounts(record.access_token);
		expect(refused.statusCode).toBe(403);
		expect(refused.body).toContain('account.read');
	});

	it('a revoked token gets 401', async () => {
		const record = sandbox.issueToken(['account.read']);
		expectSeededAccount(await getAccounts(record.access_token));
		const revoked = await httpCall(
			sandbox.authBaseUrl,
			formPost('/oauth2/revoke', { token: record.access_token }, confidentialBasic()),
		);
		expect(revoked.statusCode).toBe(200);
		expect((await getAccounts(record.access_token)).statusCode).toBe(401);
	});

	describe('webhooks', () => {
		let receiver: Server;
		const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

		beforeAll(async () => {
			receiver = createServer((request, response) => {
				const chunks: Buffer[] = [];
				request.on('data', (chunk: Buffer) => chunks.push(chunk));
				request.on('end', () => {
					received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
					response.end();
				});
			});
			await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		});

		afterAll(async () => {
			receiver.closeAllConnections();
			await new Promise<void>((resolve) => receiver.close(() => resolve()));
		});

		it('adding a subscriber through the API delivers a signed subscriber.added event', async () => {
			const { port } = receiver.address() as AddressInfo;
			const key = 'round-trip-verification-key';
			sandbox.webhooks.register(`http://127.0.0.1:${port}/hook`, key);
			const record = sandbox.issueToken(['subscriber.write']);
			const added = await httpCall(sandbox.apiBaseUrl, {
				method: 'POST',
				url: `/1.0/accounts/${sandbox.seed.accountId}/lists/${sandbox.seed.lists.customers}/subscribers`,
				headers: { authorization: `Bearer ${record.access_token}`, 'content-type': 'application/json' },
				payload: JSON.stringify({ email: 'round.trip@example.com', name: 'Round Trip' }),
			});
			expect(added.statusCode).toBe(201);
			await sandbox.webhooks.flush();

			expect(received).toHaveLength(1);
			const [delivery] = received;
			const signed = `date:${delivery.headers.date}\n${delivery.body}`.replace(/\s+$/, '');
			expect(delivery.headers['aweber-signature']).toBe(`sha256=${createHmac('sha256', key).update(signed).digest('hex')}`);
			const body = JSON.parse(delivery.body);
			expect(body.account).toBe(sandbox.seed.accountUuid);
			expect(body.client_id).toBe(sandbox.apps.confidential.clientId);
			expect(body.data.map((event: { event: string }) => event.event)).toContain('subscriber.added');
			const addedEvent = body.data.find((event: { event: string }) => event.event === 'subscriber.added');
			expect(addedEvent.payload.email).toBe('round.trip@example.com');
			expect(sandbox.webhooks.deliveries().at(-1)).toMatchObject({ status: 200, attempt: 1 });
		});
	});
});
