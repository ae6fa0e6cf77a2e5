// Workflows in a real n8n: build, import, run (Manual Trigger), publish, and read executions.
import { CREDENTIAL_TYPE } from './credentials';
import type { N8nInstance } from './n8n';
import { RUNTIME_LINE, runtimeModule } from './runtime';

export const PACKAGE_NAME = 'n8n-nodes-aweber';
export const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';
export const MANUAL_TRIGGER_NAME = 'Manual Trigger';

export type Json = Record<string, any>;

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Json;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	[setting: string]: unknown;
}

export interface WorkflowJson {
	name: string;
	nodes: WorkflowNode[];
	connections: Json;
	settings?: Json;
	[other: string]: unknown;
}

/** One AWeber node in a chain: `node` is the short type name, e.g. 'aWeberSubscriber'. */
export interface AweberStep {
	name: string;
	node: string;
	parameters: Json;
	typeVersion?: number;
	/** Default true: run once even when the previous node outputs many items. */
	executeOnce?: boolean;
	/** Other node settings (continueOnFail, alwaysOutputData, ...). */
	settings?: Json;
}

/** `n8n-nodes-aweber.<name>` */
export const aweberType = (name: string) => `${PACKAGE_NAME}.${name}`;

/** A resource-locator value by id, as n8n stores it. */
export const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

/** Connects nodes one after another (main output 0 to main input 0). */
export function chainConnections(names: string[]): Json {
	const connections: Json = {};
	for (let index = 0; index + 1 < names.length; index++) {
		connections[names[index]] = { main: [[{ node: names[index + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

/** An AWeber node using the given credential. */
export function aweberNode(step: AweberStep, credentialId: string, position: [number, number] = [0, 0]): WorkflowNode {
	return {
		name: step.name,
		type: aweberType(step.node),
		typeVersion: step.typeVersion ?? 1,
		position,
		parameters: step.parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'AWeber' } },
		executeOnce: step.executeOnce ?? true,
		...step.settings,
	};
}

/** n8n's Manual Trigger at the canvas origin, named MANUAL_TRIGGER_NAME: what runWorkflow starts a workflow from. */
export function manualTriggerNode(): WorkflowNode {
	return { name: MANUAL_TRIGGER_NAME, type: MANUAL_TRIGGER_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
}

/** Manual Trigger followed by the given AWeber nodes in a chain, all using one credential. */
export function aweberWorkflow(name: string, credentialId: string, steps: AweberStep[]): WorkflowJson {
	const trigger = manualTriggerNode();
	const nodes = steps.map((step, index) => aweberNode(step, credentialId, [220 * (index + 1), 0]));
	return {
		name,
		nodes: [trigger, ...nodes],
		connections: chainConnections([trigger.name, ...nodes.map((node) => node.name)]),
		settings: { executionOrder: 'v1' },
	};
}

/** Saves a workflow (inactive) through REST; resolves with its id. Ids and extra fields of exports are dropped. */
export async function importWorkflow(n8n: N8nInstance, json: WorkflowJson): Promise<string> {
	const created = await n8n.rest<{ id: string }>('POST', '/workflows', {
		name: json.name,
		nodes: json.nodes,
		connections: json.connections,
		settings: json.settings ?? { executionOrder: 'v1' },
		// n8n 1.x wants the flag; 2.x has none (a workflow goes live when published).
		...(RUNTIME_LINE === 1 ? { active: false } : {}),
	});
	return created.id;
}

/** Publishes (activates) the saved workflow's current version: triggers and production webhooks go live. */
export async function activateWorkflow(n8n: N8nInstance, workflowId: string): Promise<void> {
	const workflow = await n8n.rest<{ versionId: string }>('GET', `/workflows/${workflowId}`);
	await n8n.rest('POST', `/workflows/${workflowId}/activate`, { versionId: workflow.versionId });
}

export async function deactivateWorkflow(n8n: N8nInstance, workflowId: string): Promise<void> {
	await n8n.rest('POST', `/workflows/${workflowId}/deactivate`, {});
}

export interface ExecutionResult {
	executionId: string;
	/** success, error, crashed, canceled, ... */
	status: string;
	mode: string;
	/** Per node name: one entry per run of that node (ITaskData). */
	runData: Record<string, Json[]>;
	/** The run's error (resultData.error), if any. */
	error?: Json;
	lastNodeExecuted?: string;
	/** The whole execution as /rest/executions/:id answers it, `data` unflattened. */
	execution: Json;
}

const FINAL_STATUSES = ['success', 'error', 'crashed', 'canceled'];

/** Reads an execution (its data unflattened); with `wait`, until it has finished. */
export async function getExecution(
	n8n: N8nInstance,
	executionId: string,
	options: { wait?: boolean; timeoutMs?: number } = {},
): Promise<ExecutionResult> {
	const { parse } = runtimeModule<{ parse: (text: string) => Json }>('flatted');
	const deadline = Date.now() + (options.timeoutMs ?? 120_000);
	for (;;) {
		const execution = await n8n.rest<Json>('GET', `/executions/${executionId}`);
		const done = execution.finished === true || FINAL_STATUSES.includes(execution.status);
		if (done || !options.wait) {
			const data = typeof execution.data === 'string' ? parse(execution.data) : (execution.data ?? {});
			execution.data = data;
			return {
				executionId: String(execution.id),
				status: execution.status,
				mode: execution.mode,
				runData: data.resultData?.runData ?? {},
				error: data.resultData?.error,
				lastNodeExecuted: data.resultData?.lastNodeExecuted,
				execution,
			};
		}
		if (Date.now() > deadline) throw new Error(`execution ${executionId} still ${execution.status} after ${options.timeoutMs ?? 120_000} ms`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * Runs a saved workflow manually (as the editor's "Execute workflow") from its Manual Trigger, or from the
 * trigger named `triggerName` (a poll trigger then polls once in manual mode), and waits for the result.
 */
export async function runWorkflow(
	n8n: N8nInstance,
	workflowId: string,
	options: { timeoutMs?: number; triggerName?: string } = {},
): Promise<ExecutionResult> {
	const workflow = await n8n.rest<WorkflowJson>('GET', `/workflows/${workflowId}`);
	const trigger = workflow.nodes.find((node) =>
		options.triggerName === undefined ? node.type === MANUAL_TRIGGER_TYPE : node.name === options.triggerName,
	);
	if (!trigger) throw new Error(`workflow ${workflowId} has no ${options.triggerName ?? 'Manual Trigger'}`);
	// n8n 2.x runs the saved workflow, the body only says where to start; 1.x runs the workflow it is sent.
	const start = { triggerToStartFrom: { name: trigger.name } };
	const started = await n8n.rest<{ executionId: string }>(
		'POST',
		`/workflows/${workflowId}/run`,
		RUNTIME_LINE === 1 ? { workflowData: workflow, ...start } : start,
	);
	return await getExecution(n8n, started.executionId, { wait: true, timeoutMs: options.timeoutMs });
}

/** The JSON of the items a node output (first output, given run). */
export function nodeItems(result: ExecutionResult, nodeName: string, runIndex = 0, outputIndex = 0): Json[] {
	const run = result.runData[nodeName]?.[runIndex];
	if (!run) throw new Error(`node "${nodeName}" did not run (ran: ${Object.keys(result.runData).join(', ')})`);
	if (run.error) throw new Error(`node "${nodeName}" failed: ${run.error.message} ${run.error.description ?? ''}`);
	return ((run.data?.main?.[outputIndex] ?? []) as Array<{ json: Json }>).map((item) => item.json);
}

/** The error a node ended with, if any. */
export function nodeError(result: ExecutionResult, nodeName: string, runIndex = 0): Json | undefined {
	return result.runData[nodeName]?.[runIndex]?.error;
}

/** Ids of a workflow's executions, newest first. */
export async function listExecutionIds(n8n: N8nInstance, workflowId: string): Promise<string[]> {
	const page = await n8n.rest<{ results: Array<{ id: string }> }>(
		'GET',
		// n8n answers at most 100 per page (20 by default).
		`/executions?limit=100&filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
	);
	return page.results.map((execution) => String(execution.id));
}

/** Waits until a workflow has at least `count` finished executions; resolves with them, oldest first. */
export async function waitForExecutions(
	n8n: N8nInstance,
	workflowId: string,
	count: number,
	options: { timeoutMs?: number } = {},
): Promise<ExecutionResult[]> {
	const deadline = Date.now() + (options.timeoutMs ?? 60_000);
	for (;;) {
		const ids = await listExecutionIds(n8n, workflowId);
		if (ids.length >= count) {
			const results = await Promise.all(ids.map(async (id) => await getExecution(n8n, id, { wait: true })));
			return results.sort((a, b) => Number(a.executionId) - Number(b.executionId));
		}
		if (Date.now() > deadline) throw new Error(`workflow ${workflowId}: ${ids.length} of ${count} executions after ${options.timeoutMs ?? 60_000} ms`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}
