// The n8n-core the suite runs on (the compatibility matrix swaps it, jest.config.js), for the few places where
// n8n versions behave differently in a way the package cannot change.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require('n8n-core/package.json') as { version: string };

export const n8nCoreMajor = Number(version.split('.')[0]);

/**
 * n8n-core 2.x refreshes an expired OAuth2 token once per credential however many requests meet it; 1.x refreshes
 * once per request (the nodes then retry the requests whose refresh lost the race, nodes/shared/sendWithPolicies.ts).
 */
export const refreshesOncePerCredential = n8nCoreMajor >= 2;

/** n8n-core 2.x gives a poll trigger a time budget (`getPollBudgetMs`); 1.x has none. */
export const hasPollBudget = n8nCoreMajor >= 2;

/**
 * What n8n says when a field's own validation (a locator's regex) refuses a typed value before the run: n8n-core
 * 2.x runs the node and fails it with the field's message; 1.x refuses the whole workflow for its issues (the
 * editor shows the field's message on the field).
 */
export function editorRefusalMessage(fieldMessage: string): string {
	return n8nCoreMajor >= 2 ? fieldMessage : 'The workflow has issues and cannot be executed';
}
