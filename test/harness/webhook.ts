import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setImmediate } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeExecutionData, IWebhookData, IWebhookDescription, IWebhookResponseData } from 'n8n-workflow';
import { HookContext, WebhookContext } from 'n8n-core';

import type { N8nHarness, NodeSpec } from './index';
import { TriggerWorkflow } from './triggerWorkflow';

/** One request the webhook node received, and what n8n answered. */
export interface WebhookCall {
	status: number;
	/** The JSON (or text) body of the answer. */
	answer: unknown;
	/** The node's output when the request started an execution. */
	workflowData?: INodeExecutionData[][];
	/** What the node's webhook() threw, if anything (n8n then answers 500). */
	error?: Error;
}

export interface WebhookReceiver {
	/** The node's production URL, served by this receiver. */
	url: string;
	workflow: TriggerWorkflow;
	calls: WebhookCall[];
	/** The items (JSON) of each execution that a request started, in order. */
	executions(): IDataObject[][];
	/** Runs one of the node's webhookMethods as n8n does on activation / deactivation. */
	lifecycle(method: 'checkExists' | 'create' | 'delete'): Promise<boolean>;
	close(): Promise<void>;
}

/**
 * The part of Express's Response a node uses to answer by itself. n8n hands nodes Express objects; the harness
 * records the answer and writes it to the real socket afterwards.
 */
class RecordedResponse {
	statusCode = 200;

	body: unknown;

	ended = false;

	readonly headers: Record<string, string> = {};

	get headersSent(): boolean {
		return this.ended;
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string): this {
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	header(name: string, value: string): this {
		return this.setHeader(name, value);
	}

	json(body: unknown): this {
		this.setHeader('content-type', 'application/json');
		return this.end(JSON.stringify(body));
	}

	send(body: unknown): this {
		return typeof body === 'string' || Buffer.isBuffer(body) ? this.end(body) : this.json(body);
	}

	end(body?: string | Buffer): this {
		this.body = body;
		this.ended = true;
		return this;
	}
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/**
 * The request as n8n hands it to a webhook node: Express-like, with `rawBody` holding the exact bytes received
 * (n8n's rawBodyReader / parseBody), and `body` parsed only for the content types n8n parses. A multipart form n8n
 * parses into fields instead, and reads no `rawBody` (webhook-helpers' parseRequestBody); its fields are left out here.
 */
function n8nRequest(request: IncomingMessage, rawBody: Buffer): IDataObject {
	const url = new URL(request.url ?? '/', 'http://127.0.0.1');
	const contentType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	let body: unknown;
	if (rawBody.length > 0 && contentType === 'application/json') body = JSON.parse(rawBody.toString('utf8'));
	if (rawBody.length > 0 && contentType === 'text/plain') body = rawBody.toString('utf8');
	const form = contentType === 'multipart/form-data';
	return {
		method: request.method,
		url: request.url,
		path: url.pathname,
		headers: request.headers as IDataObject,
		query: Object.fromEntries(url.searchParams),
		params: {},
		contentType,
		encoding: 'utf-8',
		rawBody: form ? undefined : rawBody,
		body: body as IDataObject,
	};
}

function writeAnswer(response: ServerResponse, status: number, answer: unknown, headers: Record<string, string> = {}): void {
	const text = typeof answer === 'string' || Buffer.isBuffer(answer) ? answer : JSON.stringify(answer ?? {});
	response.writeHead(status, { 'content-type': 'application/json', ...headers });
	response.end(text);
}

/**
 * Serves a webhook trigger node on a loopback port the way n8n's production webhook endpoint runs it: n8n-core's
 * WebhookContext over the real request, the node's answer sent as n8n sends it (its own, or n8n's default 200),
 * an execution recorded when it returns workflowData, and static data read and saved per request as n8n 2.38 does.
 */
export async function startWebhookReceiver(harness: N8nHarness, spec: NodeSpec): Promise<WebhookReceiver> {
	const workflow = new TriggerWorkflow(harness, spec);
	workflow.node.webhookId = randomUUID();
	const description = workflow.nodeType.description.webhooks?.[0] as IWebhookDescription | undefined;
	if (!description) throw new Error(`${spec.type} has no webhook`);
	const calls: WebhookCall[] = [];

	const webhookData = (additionalData: IWebhookData['workflowExecuteAdditionalData']): IWebhookData => ({
		httpMethod: 'POST',
		node: workflow.node.name,
		path: `${workflow.node.webhookId}/${description.path}`,
		webhookDescription: description,
		workflowId: workflow.workflowId,
		workflowExecuteAdditionalData: additionalData,
		webhookId: workflow.node.webhookId,
	});
	const urls = { webhookBaseUrl: '', webhookTestBaseUrl: '' };

	const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		// As n8n does: each request gets its own copy of the workflow's static data, read when the request arrives
		// (LiveWebhooks.executeWebhook loads the workflow before the body is read) and written back whole once it is
		// answered (workflow.save below): requests that overlap do not see each other's changes, and the last write wins.
		const instance = workflow.open();
		// Reading the workflow is a database round trip in n8n: other requests arriving meanwhile read the same data.
		await setImmediate();
		const rawBody = await readBody(request);
		const recorded = new RecordedResponse();
		const additionalData = workflow.additionalData('webhook', {
			...urls,
			httpRequest: n8nRequest(request, rawBody) as never,
			httpResponse: recorded as never,
		});
		const node = instance.getNode(workflow.node.name)!;
		const context = new WebhookContext(instance, node, additionalData, 'webhook', webhookData(additionalData), [], null);
		let result: IWebhookResponseData;
		try {
			result = await workflow.nodeType.webhook!.call(context);
		} catch (error) {
			const answer = { message: 'Workflow Webhook Error: Workflow could not be started!' };
			calls.push({ status: 500, answer, error: error as Error });
			writeAnswer(response, 500, answer);
			return;
		}
		// n8n 2.38.7 saves the static data once the request is answered, except when n8n answers itself and starts a
		// run: starting the run resets the data's "changed" flag first, so the change is lost (docs/queue-mode.md).
		if (recorded.ended || result.workflowData === undefined) {
			// Writing it back is another round trip, after which the whole copy replaces what was saved.
			await setImmediate();
			workflow.save(instance);
		}
		if (recorded.ended) {
			// Else n8n answers too, and Express throws: headers cannot be set once they are sent (webhook-helpers).
			if (result.noWebhookResponse !== true) throw new Error('The node answered by itself but did not say so (noWebhookResponse)');
			const answer = recorded.body === undefined ? undefined : parseAnswer(recorded.body);
			calls.push({ status: recorded.statusCode, answer, workflowData: result.workflowData });
			writeAnswer(response, recorded.statusCode, recorded.body ?? '', recorded.headers);
			return;
		}
		if (result.noWebhookResponse) throw new Error('The node said it answered (noWebhookResponse) but wrote no answer');
		const status = Number(description.responseCode ?? 200);
		const answer = result.workflowData === undefined ? (result.webhookResponse ?? { message: 'Webhook call received' }) : { message: 'Workflow was started' };
		calls.push({ status, answer, workflowData: result.workflowData });
		writeAnswer(response, status, answer);
	};

	const server: Server = createServer((request, response) => {
		handle(request, response).catch((error: Error) => {
			calls.push({ status: 500, answer: { message: error.message }, error });
			if (!response.headersSent) writeAnswer(response, 500, { message: error.message });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	urls.webhookBaseUrl = `${baseUrl}/webhook`;
	urls.webhookTestBaseUrl = `${baseUrl}/webhook-test`;

	const hookContext = () => {
		const instance = workflow.open();
		const additionalData = workflow.additionalData('trigger', urls);
		const node = instance.getNode(workflow.node.name)!;
		return { instance, context: new HookContext(instance, node, additionalData, 'trigger', 'activate', webhookData(additionalData)) };
	};
	const lifecycle = async (method: 'checkExists' | 'create' | 'delete'): Promise<boolean> => {
		const { instance, context } = hookContext();
		const done = await workflow.nodeType.webhookMethods!.default![method].call(context);
		// n8n saves the workflow's static data after activating (and deactivating) its webhooks.
		workflow.save(instance);
		return done;
	};

	// The URL n8n shows as the node's Production URL, built by n8n-core from the node's webhook description.
	const url = hookContext().context.getNodeWebhookUrl('default');
	if (url === undefined || !url.startsWith(urls.webhookBaseUrl)) throw new Error(`Unexpected production URL ${url}`);
	return {
		url,
		workflow,
		calls,
		executions: () =>
			calls.filter((call) => call.workflowData !== undefined).map((call) => call.workflowData![0].map((item) => item.json)),
		lifecycle,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

function parseAnswer(body: unknown): unknown {
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : String(body);
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
