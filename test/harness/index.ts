import { randomUUID } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	IRun,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { HarnessCredentialsHelper, type StoredCredential } from './credentials';
import { HarnessNodeTypes, loadPackage, PACKAGE_PREFIX } from './nodeTypes';

export { PACKAGE_PREFIX } from './nodeTypes';
export type { StoredCredential, TokenUpdate } from './credentials';

export const CREDENTIAL_TYPE = 'aWeberOAuth2Api';

export interface NodeSpec {
	/** Node name without the package prefix, e.g. `aWeberSubscriber`. */
	type: string;
	parameters: IDataObject;
	name?: string;
	continueOnFail?: boolean;
	credentialId?: string;
}

export interface RunResult {
	run: IRun;
	status: IRun['status'];
	/** The error that stopped the workflow, if any. */
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	/** Output items (main output 0) of a node's last run. */
	output(nodeName: string): INodeExecutionData[];
	/** JSON of each output item of a node's last run. */
	json(nodeName: string): IDataObject[];
}

/**
 * Runs workflows through n8n-core's WorkflowExecute with the package's built nodes: the real RoutingNode,
 * expression evaluation, and OAuth2 signing and refresh, against whatever the credentials point at.
 */
export class N8nHarness {
	readonly nodeTypes: HarnessNodeTypes;

	readonly credentials: HarnessCredentialsHelper;

	constructor() {
		const loaded = loadPackage();
		this.nodeTypes = new HarnessNodeTypes(loaded.nodes, loaded.unbuilt);
		this.credentials = new HarnessCredentialsHelper(loaded.credentials);
	}

	/** Stores an AWeber credential (token data included) and returns its id. */
	addCredential(data: ICredentialDataDecryptedObject, id = `cred-${Math.random().toString(36).slice(2, 10)}`): string {
		const credential: StoredCredential = { id, name: `AWeber ${id}`, type: CREDENTIAL_TYPE, data };
		this.credentials.set(credential);
		return id;
	}

	/** Runs one AWeber node over the given input items (one item `{}` when none are given). */
	async runNode(spec: NodeSpec, inputItems: IDataObject[] = [{}], options: RunOptions = {}): Promise<RunResult & { items: IDataObject[] }> {
		const node = this.toNode(spec, 'Node Under Test');
		const result = await this.run({ nodes: [node], connections: {} }, { ...options, inputItems, startNode: node.name });
		return Object.assign(result, { items: result.status === 'success' ? result.json(node.name) : [] });
	}

	/** Runs a chain of nodes, each feeding the next. */
	async runChain(specs: NodeSpec[], inputItems: IDataObject[] = [{}], options: RunOptions = {}): Promise<RunResult> {
		const nodes = specs.map((spec, index) => this.toNode(spec, spec.name ?? `Step ${index + 1}`));
		const connections: IConnections = {};
		for (let index = 0; index < nodes.length - 1; index++) {
			connections[nodes[index].name] = { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] };
		}
		return await this.run({ nodes, connections }, { ...options, inputItems, startNode: nodes[0].name });
	}

	toNode(spec: NodeSpec, defaultName: string): INode {
		const type = spec.type.includes('.') ? spec.type : `${PACKAGE_PREFIX}${spec.type}`;
		const credentialId = spec.credentialId;
		return {
			id: `${defaultName}-id`,
			name: spec.name ?? defaultName,
			type,
			typeVersion: 1,
			position: [0, 0],
			parameters: spec.parameters as INode['parameters'],
			...(spec.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			...(credentialId ? { credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: `AWeber ${credentialId}` } } } : {}),
		};
	}

	async run(
		workflowData: { nodes: INode[]; connections: IConnections; settings?: IWorkflowSettings; staticData?: IDataObject },
		options: RunOptions & { startNode?: string } = {},
	): Promise<RunResult> {
		const workflow = new Workflow({
			id: options.workflowId ?? 'harness-workflow',
			nodes: workflowData.nodes,
			connections: workflowData.connections,
			nodeTypes: this.nodeTypes,
			active: false,
			settings: workflowData.settings,
			staticData: workflowData.staticData,
		});
		const mode: WorkflowExecuteMode = options.mode ?? 'manual';
		const hooks = new ExecutionLifecycleHooks(mode, 'harness-execution', {
			id: 'harness-workflow',
			name: 'Harness',
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			nodes: workflowData.nodes,
			connections: workflowData.connections,
		});
		let resolveFinished: (run: IRun) => void = () => undefined;
		const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
		hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));
		const { afterNode } = options;
		if (afterNode) hooks.addHandler('nodeExecuteAfter', async (nodeName) => await afterNode(nodeName));
		const additionalData = harnessAdditionalData(this.credentials, hooks);
		// As n8n gives each execution its own ID (the rate limiter shares turns between executions by it).
		additionalData.executionId = options.executionId ?? `harness-${randomUUID()}`;
		const { onEditorConsole } = options;
		if (onEditorConsole) {
			additionalData.sendDataToUI = (type: string, data: IDataObject | IDataObject[]) => {
				if (type === 'sendConsoleMessage' && !Array.isArray(data)) onEditorConsole(data.messages as unknown[]);
			};
		}
		const startNode = options.startNode ? workflow.getNode(options.startNode) : workflow.getStartNode();
		if (!startNode) throw new Error('The workflow has no start node');
		const runExecutionData: IRunExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{
						node: startNode,
						data: { main: [(options.inputItems ?? [{}]).map((json) => ({ json }))] },
						source: null,
					},
				],
			},
		});
		const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
		try {
			await workflowExecute.processRunExecutionData(workflow);
		} catch (error) {
			// n8n refuses to start a workflow whose parameters fail validation (e.g. a locator ID of the wrong shape).
			return failedBeforeStart(error as Error);
		}
		const run = await finished;
		return toRunResult(run);
	}
}

export interface RunOptions {
	inputItems?: IDataObject[];
	/** Called after each node finished, before the next starts (e.g. to expire tokens mid-workflow). */
	afterNode?: (nodeName: string) => void | Promise<void>;
	mode?: WorkflowExecuteMode;
	workflowId?: string;
	/** n8n's execution ID (default: a new one per run, as in n8n). */
	executionId?: string;
	/** The messages a node sends to the editor's browser console (n8n's `sendMessageToUI`), as the editor would get them. */
	onEditorConsole?: (messages: unknown[]) => void;
}

function toRunResult(run: IRun): RunResult {
	const runData = run.data.resultData.runData;
	const output = (nodeName: string): INodeExecutionData[] => {
		const runs = runData[nodeName];
		if (!runs?.length) throw new Error(`Node "${nodeName}" did not run`);
		return runs[runs.length - 1].data?.main?.[0] ?? [];
	};
	return {
		run,
		status: run.status,
		error: run.data.resultData.error as RunResult['error'],
		output,
		json: (nodeName) => output(nodeName).map((item) => item.json),
	};
}

function failedBeforeStart(error: Error): RunResult {
	const run = { status: 'error', data: createRunExecutionData({ resultData: { runData: {} } }) } as unknown as IRun;
	return {
		run,
		status: 'error',
		error: error as RunResult['error'],
		output: (nodeName) => {
			throw new Error(`Node "${nodeName}" did not run: ${error.message}`);
		},
		json: (nodeName) => {
			throw new Error(`Node "${nodeName}" did not run: ${error.message}`);
		},
	};
}

/**
 * The additional data of the runs this test file's harness started. A jest worker shares n8n-core between files
 * (test/jest/), so a run an earlier file left going (its test timed out) reaches the same node contexts: what records
 * a run's side effects (nodeLogs.ts) keeps to this file's runs.
 */
const thisFilesRuns = new WeakSet<object>();

export function isThisFilesRun(additionalData: unknown): boolean {
	return typeof additionalData === 'object' && additionalData !== null && thisFilesRuns.has(additionalData);
}

export function harnessAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	hooks: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const known: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper,
		hooks,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		logAiEvent: () => undefined,
		getRunExecutionData: async () => undefined,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not available in the harness');
		},
	};
	thisFilesRuns.add(known);
	return known as IWorkflowExecuteAdditionalData;
}
