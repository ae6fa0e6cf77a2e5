import type { IDataObject } from 'n8n-workflow';
import { PollContext } from 'n8n-core';

import type { N8nHarness, NodeSpec } from './index';
import { TriggerWorkflow } from './triggerWorkflow';

export interface PollOptions {
	/** 'trigger' is an active workflow's scheduled poll; 'manual' is the editor's "Fetch Test Event". */
	mode?: 'trigger' | 'manual';
	/** What n8n's getPollBudgetMs() answers (n8n's default is 5 minutes). */
	pollBudgetMs?: number;
	/** A poll context as n8n 1.x makes it, without getPollBudgetMs (it came with 2.x). */
	withoutPollBudget?: boolean;
}

/**
 * Runs a polling trigger's poll() with n8n-core's PollContext, poll after poll, keeping the workflow's static
 * data between polls as n8n does: saved after a successful poll of an active workflow (with the execution it
 * started, or by committing the cursor when it emitted nothing), dropped when the poll throws, never saved for
 * manual runs.
 */
export class PollRunner {
	readonly workflow: TriggerWorkflow;

	constructor(harness: N8nHarness, spec: NodeSpec) {
		this.workflow = new TriggerWorkflow(harness, spec);
	}

	/** The JSON of the items the poll emitted, or null when it emitted nothing. */
	async poll(options: PollOptions = {}): Promise<IDataObject[] | null> {
		const mode = options.mode ?? 'trigger';
		const instance = this.workflow.open();
		const node = instance.getNode(this.workflow.node.name)!;
		const additionalData = this.workflow.additionalData(mode);
		// The engine's emit / cursor-commit hooks stay n8n-core's defaults: poll() returns its items, and the
		// harness saves the static data below as the engine does around a poll.
		const context = new PollContext(
			instance,
			node,
			additionalData,
			mode,
			mode === 'manual' ? 'manual' : 'activate',
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			() => options.pollBudgetMs ?? 5 * 60_000,
		);
		if (options.withoutPollBudget) Reflect.deleteProperty(context, 'getPollBudgetMs');
		const result = await this.workflow.nodeType.poll!.call(context);
		if (mode !== 'manual') this.workflow.save(instance);
		return result === null ? null : result[0].map((item) => item.json);
	}
}
