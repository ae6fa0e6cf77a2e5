// A scripted OpenAI-compatible chat model on loopback for the AI Agent e2e: it answers each chat completion with the
// next scripted turn (tool calls a model would make, then a final answer) and records what it was sent, including
// the tool results the agent passed back. Not a model: the script decides, so the test knows what to expect.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ScriptedTurn = { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> } | { answer: string };

export interface ChatMessage {
	role: string;
	content?: string | null;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ScriptedModel {
	/** The base URL for n8n's OpenAI credential (…/v1). */
	url: string;
	/** The chat completion requests received, in order. */
	received: Array<{ model: string; messages: ChatMessage[]; tools?: Array<{ function: { name: string; description: string; parameters: any } }> }>;
	stop(): Promise<void>;
}

function completion(turn: ScriptedTurn, index: number) {
	const message =
		'answer' in turn
			? { role: 'assistant', content: turn.answer }
			: {
					role: 'assistant',
					content: null,
					tool_calls: turn.toolCalls.map((call, callIndex) => ({
						id: `call_${index}_${callIndex}`,
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.arguments) },
					})),
				};
	return {
		id: `chatcmpl-${index}`,
		object: 'chat.completion',
		created: 0,
		model: 'scripted',
		choices: [{ index: 0, message, finish_reason: 'answer' in turn ? 'stop' : 'tool_calls' }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

/** Starts the model on a free loopback port; it answers the turns in order, then the last one again. */
export async function startScriptedModel(turns: ScriptedTurn[]): Promise<ScriptedModel> {
	const received: ScriptedModel['received'] = [];
	const server: Server = createServer((request, response) => {
		let text = '';
		request.on('data', (chunk: Buffer) => (text += chunk.toString()));
		request.on('end', () => {
			if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
				response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not scripted"}}');
				return;
			}
			const body = JSON.parse(text) as ScriptedModel['received'][number] & { stream?: boolean };
			received.push(body);
			const index = Math.min(received.length, turns.length) - 1;
			const answer = completion(turns[index], index);
			if (!body.stream) {
				response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
				return;
			}
			// Streamed: the whole turn as one chunk (tool calls carry their index, as OpenAI streams them).
			const [choice] = answer.choices;
			const delta = { ...choice.message, tool_calls: choice.message.tool_calls?.map((call, callIndex) => ({ index: callIndex, ...call })) };
			const chunk = { ...answer, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: choice.finish_reason }] };
			response.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		received,
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
