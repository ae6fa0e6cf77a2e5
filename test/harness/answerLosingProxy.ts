// A proxy in front of the sandbox that loses AWeber's answer after the sandbox carried the request out.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { request } from 'undici';

import { sandboxCredentialData, type AweberTestbed } from './aweber';

/**
 * A pass-through proxy in front of the sandbox that can lose AWeber's answer AFTER the sandbox carried the
 * request out (the sandbox's own faults strike before it acts): "processed, then the connection dropped"
 * or "processed, then a 500", the case where a retried add meets AWeber's duplicate refusal.
 */
export class AnswerLosingProxy {
	private server!: Server;

	private losses: Array<{ method: string; pathEnd: string; remaining: number; how: 'reset' | '500' }> = [];

	url = '';

	constructor(private readonly upstream: string) {}

	async start(): Promise<void> {
		this.server = createServer((incoming, outgoing) => {
			void (async () => {
				const body = await readBody(incoming);
				const headers = { ...incoming.headers };
				delete headers.host;
				delete headers.connection;
				let answer;
				let answerBody: Buffer;
				try {
					answer = await request(`${this.upstream}${incoming.url}`, {
						method: incoming.method as 'GET',
						headers,
						body: body.length > 0 ? body : undefined,
					});
					answerBody = Buffer.from(await answer.body.arrayBuffer());
				} catch {
					// The sandbox dropped the connection (its own 'reset' fault): drop the client's too.
					incoming.socket.destroy();
					return;
				}
				const loss = this.losses.find(
					(candidate) => candidate.remaining > 0 && candidate.method === incoming.method && incoming.url?.split('?')[0].endsWith(candidate.pathEnd),
				);
				if (loss) {
					loss.remaining--;
					if (loss.how === 'reset') {
						incoming.socket.destroy();
						return;
					}
					outgoing.writeHead(500, { 'content-type': 'application/json' });
					outgoing.end(JSON.stringify({ error: { status: 500, type: 'InternalServerError', message: 'An internal error occurred.' } }));
					return;
				}
				// A reverse proxy answers with its own origin in links, as AWeber's are all under its API origin
				// (the node refuses to send the token to any other origin).
				const relink = (text: string) => text.split(this.upstream).join(this.url);
				const passed: Record<string, string | string[]> = {};
				for (const [name, value] of Object.entries(answer.headers)) {
					if (value === undefined || ['transfer-encoding', 'connection', 'keep-alive', 'content-length'].includes(name)) continue;
					passed[name] = Array.isArray(value) ? value.map(relink) : relink(value);
				}
				outgoing.writeHead(answer.statusCode, passed);
				outgoing.end(relink(answerBody.toString('utf8')));
			})();
		});
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** The next `count` requests whose path ends with `pathEnd` are carried out, then their answer is lost. */
	loseAnswers(count: number, method: string, pathEnd: string, how: 'reset' | '500'): void {
		this.losses.push({ method, pathEnd, remaining: count, how });
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of incoming) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/**
 * An AnswerLosingProxy in front of the testbed's sandbox for the tests of a describe block, with a credential that
 * reaches the sandbox through it (`viaProxy`). Read both inside tests.
 */
export function useAnswerLosingProxy(bed: AweberTestbed): { proxy: AnswerLosingProxy; viaProxy: string } {
	const losing = {} as { proxy: AnswerLosingProxy; viaProxy: string };
	beforeAll(async () => {
		losing.proxy = new AnswerLosingProxy(bed.sandbox.apiBaseUrl);
		await losing.proxy.start();
		losing.viaProxy = bed.harness.addCredential({ ...sandboxCredentialData(bed.sandbox), apiBaseUrl: losing.proxy.url });
	});
	afterAll(async () => await losing.proxy?.stop());
	return losing;
}
