import type { IDataObject, INode, INodeType, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks } from 'n8n-core';

import { harnessAdditionalData, type N8nHarness, type NodeSpec } from './index';

/**
 * A one-node workflow holding a trigger, with its static data kept as n8n's database keeps it: each delivery or
 * poll gets a fresh Workflow built from the saved data, and the data is saved back only when the node changed it
 * (n8n's WorkflowStaticDataService.saveStaticData checks `__dataChanged` the same way).
 */
export class TriggerWorkflow {
	readonly node: INode;

	readonly nodeType: INodeType;

	/** The static data as saved, e.g. `staticData['node:Trigger Under Test']`. */
	staticData: IDataObject = {};

	/** How many times the static data was saved (n8n writes the workflow row each time). */
	saves = 0;

	constructor(
		readonly harness: N8nHarness,
		spec: NodeSpec,
		readonly workflowId = `trigger-workflow-${Math.random().toString(36).slice(2, 8)}`,
	) {
		this.node = harness.toNode(spec, 'Trigger Under Test');
		this.nodeType = harness.nodeTypes.getByNameAndVersion(this.node.type);
	}

	/** The node's own static data as saved (`getWorkflowStaticData('node')`). */
	get nodeStaticData(): IDataObject {
		return (this.staticData[`node:${this.node.name}`] as IDataObject | undefined) ?? {};
	}

	/** A Workflow as n8n builds it for one delivery or poll: from the saved static data. */
	open(): Workflow {
		return new Workflow({
			id: this.workflowId,
			name: 'Trigger Harness',
			nodes: [this.node],
			connections: {},
			nodeTypes: this.harness.nodeTypes,
			active: true,
			staticData: structuredClone(this.staticData),
		});
	}

	save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		this.staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		this.saves++;
	}

	additionalData(mode: 'webhook' | 'trigger' | 'manual', extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
		const hooks = new ExecutionLifecycleHooks(mode, `${this.workflowId}-execution`, {
			id: this.workflowId,
			name: 'Trigger Harness',
			active: true,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			nodes: [this.node],
			connections: {},
		});
		return Object.assign(harnessAdditionalData(this.harness.credentials, hooks), extra);
	}
}
